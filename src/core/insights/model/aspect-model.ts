// The learned aspect model: per-aspect detection (one-vs-rest logistic regression) and per-mention
// polarity (softmax over positive/negative/neutral) over hashed sentence features, trained from the
// labelled corpus by `npm run train:aspects` and shipped as data (aspect-model.json). Detection
// also reads the mean pretrained word vector (word-vectors.ts), so that what the corpus teaches
// about a word reaches its near-synonyms, and it scores each clause of a longer sentence on its own,
// so that evidence for other aspects elsewhere in a long sentence does not drown a clause that
// plainly speaks of one. A small convolutional network over the same vectors (conv.ts), which reads
// word order, is a second detector: each detection probability mixes the two detectors' log-odds.
// Polarity reads the whole sentence plus the clause that most evidences the aspect, so "great roof
// but the office never called back" gets each stance from its own clause; a second such network,
// with an output per aspect and polarity, adds what word order says about each stance.
import type { AspectId } from '../lexicon.ts';
import { ASPECT_IDS } from '../lexicon.ts';
import {
  convFrom,
  convProjections,
  convSpanScores,
  rowsOf,
  serializeConv,
  trainConv,
  type ConvDetector,
  type SerializedConv,
} from './conv.ts';
import {
  distinctBuckets,
  FEATURE_BITS,
  featuresOf,
  tokenizeForModel,
  type SentenceTokens,
} from './features.ts';
import {
  averageOf,
  rowOf,
  scores,
  shareSparse,
  sigmoid,
  softmax,
  sparseFromHundredths,
  sparseFromRows,
  sparseFromShared,
  train,
  type Example,
  type SharedSparseModel,
  type SparseModel,
} from './logistic.ts';
import { splitModelJson, type HundredthsSection } from './model-json.ts';
import { DIMENSIONS, VECTOR_UNIT, meanVector, type WordVectors } from './word-vectors.ts';

const VERSION = 4;
/**
 * Detection's outputs: one per aspect in ASPECT_IDS order, then one more (index `ANY`) trained on
 * whether a sentence has any aspect at all. Each aspect's output learns its own words ("adjuster",
 * "estimate") as evidence, so a story sentence that only mentions them can reach an aspect; this
 * one learns what judging the company reads like, whatever the aspect.
 */
export const ANY = ASPECT_IDS.length;
const DETECTION_CLASSES = ASPECT_IDS.length + 1;
/** The buckets of the mean vector's dimensions, just above the hashed features'. */
const DENSE_BUCKETS = Array.from({ length: DIMENSIONS }, (_, d) => (1 << FEATURE_BITS) + d);

export const MODEL_POLARITIES = ['positive', 'negative', 'neutral'] as const;
export type ModelPolarity = (typeof MODEL_POLARITIES)[number];

export interface LabelledExample {
  text: string;
  aspects: readonly { aspect: AspectId; polarity: ModelPolarity }[];
}

export interface AspectModel {
  version: number;
  featureBits: number;
  /** Detection probability (of the whole sentence) at or above which an aspect is reported. */
  threshold: number;
  /** Detection probability of one clause of a longer sentence at or above which it is reported. */
  clauseThreshold: number;
  /**
   * Detection probability (of the whole sentence) at or above which the owner's lexicon may add an
   * aspect it names: the model must not rule it out.
   */
  lexiconFloor: number;
  /**
   * The "any aspect" probability (of the whole sentence or of one clause) below which a sentence
   * reports nothing, neither from the model nor from the lexicon; 0 lets every sentence through.
   */
  gate: number;
  /** What the mean word vector is multiplied by before detection reads it. */
  vectorScale: number;
  detection: SparseModel;
  /**
   * The convolutional detector (conv.ts), or null: detection probabilities are then the logistic
   * model's alone.
   */
  conv: ConvDetector | null;
  /** The convolutional detector's share of each detection probability (the rest: the logistic's). */
  convWeight: number;
  polarity: SparseModel;
  /**
   * A convolutional network for polarity (conv.ts), or null: one output per aspect and polarity
   * (POLARITY_PAIRS), read over the sentence or over the clause that most evidences the aspect.
   * It reads word order ("could not have been happier", "not cheap but worth it"), which the
   * polarity model's hashed features see only as pairs.
   */
  polarityConv: ConvDetector | null;
  /** Its share of each polarity's raw score (the rest: the polarity model's); 0 without it. */
  polarityConvWeight: number;
  /** What it reads: the whole sentence, or the aspect's focus clause. */
  polarityConvSpan: PolarityConvSpan;
  vectors: WordVectors;
}

export type PolarityConvSpan = 'sentence' | 'clause';

/** The polarity network's outputs: aspect k's polarity p is output k * 3 + p. */
const POLARITY_PAIRS = ASPECT_IDS.length * MODEL_POLARITIES.length;

export interface Hyperparameters {
  epochs: number;
  learningRate: number;
  l2: number;
  threshold: number;
  clauseThreshold: number;
  lexiconFloor: number;
  gate: number;
  vectorScale: number;
  /** Weights below this (every class's) are left out of the shipped file. */
  prune: number;
  /** Features seen in fewer training sentences than this get no weight. */
  minCount: number;
  /** The convolutional detector's filters (0: none) and training. */
  convFilters: number;
  convWeight: number;
  convEpochs: number;
  convLearningRate: number;
  convBatch: number;
  convDropout: number;
  /** The share of a sentence's words the convolutional detector trains without (conv.ts). */
  convWordDropout: number;
  /** The share of features the logistic detector trains each example without (logistic.ts). */
  featureDropout: number;
  /**
   * How many times the logistic detector is trained, with seeds seed, seed + 1, …; the shipped
   * detector is their mean.
   */
  detectionSeeds: number;
  /** The polarity network's filters (0: none), its share and what it reads. */
  polarityConvFilters: number;
  polarityConvWeight: number;
  polarityConvSpan: PolarityConvSpan;
  seed: number;
}

export const DEFAULT_HYPERPARAMETERS: Hyperparameters = {
  epochs: 12,
  learningRate: 0.3,
  l2: 1e-5,
  threshold: 0.6,
  clauseThreshold: 0.8,
  lexiconFloor: 0.3,
  gate: 0,
  vectorScale: 10,
  prune: 0.02,
  minCount: 2,
  convFilters: 128,
  convWeight: 0.5,
  convEpochs: 6,
  convLearningRate: 0.002,
  convBatch: 16,
  convDropout: 0.3,
  convWordDropout: 0,
  featureDropout: 0,
  detectionSeeds: 3,
  polarityConvFilters: 128,
  polarityConvWeight: 0.7,
  polarityConvSpan: 'sentence',
  seed: 20261125,
};

/**
 * What detection is trained on for the words in [from, to): hashed features, then the mean word
 * vector's dimensions as valued features.
 */
export interface DetectionInput {
  features: number[];
  values?: number[];
}

export function detectionInput(
  vectors: WordVectors,
  vectorScale: number,
  tokens: SentenceTokens,
  from = 0,
  to = tokens.words.length,
  hashed = featuresOf(tokens, from, to),
): DetectionInput {
  const mean = meanVector(vectors, tokens.words, from, to, vectorScale);
  if (mean === null) return { features: hashed };
  return {
    features: [...hashed, ...DENSE_BUCKETS],
    values: [...hashed.map(() => 1), ...mean],
  };
}

/**
 * Per word-vector row, what it adds to each aspect's detection score (its bytes times the weights
 * of the mean vector's buckets), computed once per model. Detection is linear in the mean vector,
 * so scoring sums these instead of building the mean: the same scores as `detectionInput` gives
 * in training, for a tenth of the work.
 */
const contributionTables = new WeakMap<SparseModel, Float64Array>();

function contributionsOf(model: AspectModel): Float64Array {
  let table = contributionTables.get(model.detection);
  if (!table) {
    const classes = model.detection.classes;
    const { data, index } = model.vectors;
    table = new Float64Array(
      new SharedArrayBuffer(index.size * classes * Float64Array.BYTES_PER_ELEMENT),
    );
    for (let d = 0; d < DIMENSIONS; d++) {
      const weights = rowOf(model.detection, DENSE_BUCKETS[d]!);
      if (!weights) continue;
      for (let row = 0; row < index.size; row++) {
        const value = data[row * DIMENSIONS + d]!;
        if (value !== 0)
          for (let c = 0; c < classes; c++) table[row * classes + c]! += value * weights[c]!;
      }
    }
    contributionTables.set(model.detection, table);
  }
  return table;
}

/** The word-vector row of each word (-1: none). */
function vectorRows(vectors: WordVectors, tokens: SentenceTokens): Int32Array {
  return Int32Array.from(tokens.words, (word) => vectors.index.get(word) ?? -1);
}

/** Raw detection scores of the words in [from, to), from their hashed features and vector rows. */
function detectionScores(
  model: AspectModel,
  hashed: readonly number[],
  rows: Int32Array,
  from: number,
  to: number,
): number[] {
  const out = scores(model.detection, hashed);
  const table = contributionsOf(model);
  const classes = out.length;
  const sum = new Float64Array(classes);
  let count = 0;
  for (let i = from; i < to; i++) {
    const row = rows[i]!;
    if (row < 0) continue;
    count++;
    for (let c = 0; c < classes; c++) sum[c]! += table[row * classes + c]!;
  }
  if (count > 0) {
    const factor = model.vectorScale / (count * VECTOR_UNIT);
    for (let c = 0; c < classes; c++) out[c]! += sum[c]! * factor;
  }
  return out;
}

/** Raw detection scores (log-odds) of one span, per aspect, from each detector. */
export interface DetectionParts {
  logistic: number[];
  /** The convolutional detector's; null when the model has none. */
  conv: number[] | null;
}

/**
 * The convolutional detector's view of a sentence: the projections of its words that have a
 * vector, and for each word position how many such words come before it, so that the words
 * [from, to) are the projections [before[from], before[to]).
 */
interface ConvSentence {
  projected: Float32Array[];
  before: Int32Array;
}

function convSentence(model: AspectModel, rows: Int32Array): ConvSentence | null {
  return model.conv === null ? null : convView(model.conv, model.vectors, rows);
}

/** A convolutional network's view of a sentence whose words have the vector rows `rows`. */
function convView(detector: ConvDetector, vectors: WordVectors, rows: Int32Array): ConvSentence {
  const present: number[] = [];
  const before = new Int32Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) {
    before[i] = present.length;
    if (rows[i]! >= 0) present.push(rows[i]!);
  }
  before[rows.length] = present.length;
  return { projected: convProjections(detector, vectors, present), before };
}

/** The detection parts of the words in [from, to), given the logistic model's scores for them. */
function partsOf(
  model: AspectModel,
  logistic: number[],
  sentence: ConvSentence | null,
  from: number,
  to: number,
): DetectionParts {
  if (model.conv === null || sentence === null) return { logistic, conv: null };
  const { projected, before } = sentence;
  return { logistic, conv: convSpanScores(model.conv, projected, before[from]!, before[to]!) };
}

/**
 * Detection probabilities from a span's parts: the raw scores weighted (the convolutional
 * detector's share `convWeight`, the logistic model's the rest), then squashed.
 */
export function mixDetection(parts: DetectionParts, convWeight: number): number[] {
  const { logistic, conv } = parts;
  if (conv === null || convWeight === 0) return logistic.map(sigmoid);
  return logistic.map((s, k) => sigmoid((1 - convWeight) * s + convWeight * conv[k]!));
}

/**
 * Per detection output (the aspects, then "any aspect"), the highest probability any one clause
 * gets (0 when there are none).
 */
export function clauseMaxima(clauses: readonly DetectionParts[], convWeight: number): number[] {
  const out: number[] = Array.from({ length: DETECTION_CLASSES }, () => 0);
  for (const clause of clauses)
    mixDetection(clause, convWeight).forEach((p, k) => {
      out[k] = Math.max(out[k]!, p);
    });
  return out;
}

/** The clauses of a sentence as word ranges [from, to). */
function clauseRanges(tokens: SentenceTokens): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= tokens.words.length; i++) {
    if (i < tokens.words.length && tokens.clauses[i] === tokens.clauses[start]) continue;
    ranges.push([start, i]);
    start = i;
  }
  return ranges;
}

/**
 * A clause of more words than this is also read in parts (`splitLongClauses`). Such a run-on ("we
 * were nervous and the estimate was clear and the crew showed up on time and …") is rare in the
 * labelled sentences, and read whole it scores below every threshold: each aspect's evidence is
 * outweighed by the rest.
 */
export const LONG_CLAUSE_WORDS = 25;

/** The words a long clause is split before: they join one statement to the next. */
const JOINERS = new Set(['and', 'then', 'so', 'plus', 'also']);

/** A part of a long clause has at least this many words: "nice and clean" stays whole. */
const PART_MIN_WORDS = 4;

/**
 * The ranges with each clause longer than LONG_CLAUSE_WORDS split before its joining words, into
 * parts of at least PART_MIN_WORDS words.
 */
export function splitLongClauses(
  words: readonly string[],
  ranges: readonly [number, number][],
): [number, number][] {
  const out: [number, number][] = [];
  for (const [from, to] of ranges) {
    if (to - from <= LONG_CLAUSE_WORDS) {
      out.push([from, to]);
      continue;
    }
    let start = from;
    for (let i = from + PART_MIN_WORDS; i <= to - PART_MIN_WORDS; i++)
      if (JOINERS.has(words[i]!) && i - start >= PART_MIN_WORDS) {
        out.push([start, i]);
        start = i;
      }
    out.push([start, to]);
  }
  return out;
}

/**
 * What the polarity part reads for one aspect of one sentence: the sentence's features, those of
 * the clause whose words score highest for the aspect (its focus), and that clause's words
 * conjoined with the aspect. Clause scores and features are computed once per sentence and shared
 * by every aspect asked for.
 */
class PolarityInputs {
  #ranges: [number, number][] | undefined;
  #clauseScores: number[][] | undefined;
  readonly #focusFeatures = new Map<number, number[]>();

  readonly model: AspectModel;
  readonly tokens: SentenceTokens;
  readonly base: readonly number[];
  readonly rows: Int32Array;
  readonly #split: boolean;

  constructor(
    model: AspectModel,
    tokens: SentenceTokens,
    base: readonly number[],
    rows = vectorRows(model.vectors, tokens),
    split = false,
  ) {
    this.model = model;
    this.tokens = tokens;
    this.base = base;
    this.rows = rows;
    this.#split = split;
  }

  get ranges(): [number, number][] {
    this.#ranges ??= this.#split
      ? splitLongClauses(this.tokens.words, clauseRanges(this.tokens))
      : clauseRanges(this.tokens);
    return this.#ranges;
  }

  /** Each clause's raw detection scores, in `ranges` order. */
  get clauseScores(): number[][] {
    this.#clauseScores ??= this.ranges.map(([from, to]) =>
      detectionScores(this.model, featuresOf(this.tokens, from, to), this.rows, from, to),
    );
    return this.#clauseScores;
  }

  /** The clause (word range) whose words score highest for the aspect. */
  focus(aspectIndex: number): [number, number] {
    const { ranges } = this;
    // One clause is the focus whatever its scores: they are not computed.
    if (ranges.length === 1) return ranges[0]!;
    const { clauseScores } = this;
    let best = 0;
    for (let k = 1; k < ranges.length; k++)
      if (clauseScores[k]![aspectIndex]! > clauseScores[best]![aspectIndex]!) best = k;
    return ranges[best] ?? [0, this.tokens.words.length];
  }

  of(aspect: AspectId): { features: number[]; clause: [number, number] } {
    const clause = this.focus(ASPECT_IDS.indexOf(aspect));
    let focus = this.#focusFeatures.get(clause[0]);
    if (!focus) {
      focus = featuresOf(this.tokens, clause[0], clause[1], 'k:');
      this.#focusFeatures.set(clause[0], focus);
    }
    const conjoined = featuresOf(this.tokens, clause[0], clause[1], `${aspect}|`);
    return { features: distinctBuckets(this.base, focus, conjoined), clause };
  }
}

/**
 * A model as another thread of the build is given it (`workerData` or `postMessage`): its weight
 * tables sit in shared memory, so every thread reads the one copy (about 45 MB) and none parses
 * the model file again; the rest (the networks, the word vectors) is copied.
 */
export interface SharedAspectModel extends Omit<AspectModel, 'detection' | 'polarity'> {
  detection: SharedSparseModel;
  polarity: SharedSparseModel;
  /** What each word vector adds to detection (`contributionsOf`). */
  contributions: Float64Array;
}

export function shareAspectModel(model: AspectModel): SharedAspectModel {
  return {
    ...model,
    detection: shareSparse(model.detection),
    polarity: shareSparse(model.polarity),
    contributions: contributionsOf(model),
  };
}

/** The model another thread shared (`shareAspectModel`). */
export function aspectModelFromShared(shared: SharedAspectModel): AspectModel {
  const { contributions, ...rest } = shared;
  const model: AspectModel = {
    ...rest,
    detection: sparseFromShared(shared.detection),
    polarity: sparseFromShared(shared.polarity),
  };
  contributionTables.set(model.detection, contributions);
  return model;
}

/** Trains both parts from labelled sentences; the same data and seed give the same model. */
export function trainAspectModel(
  data: readonly LabelledExample[],
  vectors: WordVectors,
  hyper: Hyperparameters = DEFAULT_HYPERPARAMETERS,
): AspectModel {
  const tokenized = data.map((item) => tokenizeForModel(item.text));
  const base = tokenized.map((tokens) => featuresOf(tokens));
  // Each sentence's aspects as bits, aspect k being bit k, and bit ANY when it has one: the
  // labels of both detectors.
  const labels = data.map((item) =>
    ASPECT_IDS.reduce(
      (bits, aspect, column) =>
        item.aspects.some((a) => a.aspect === aspect) ? bits | (1 << column) | (1 << ANY) : bits,
      0,
    ),
  );
  // One logistic regression per aspect (one-vs-rest), trained together in one pass; trained with
  // `detectionSeeds` seeds and averaged, which scored higher on the validation set (on the test
  // sets, no differently).
  const detectionExamples = data.map((_, index) => ({
    ...detectionInput(vectors, hyper.vectorScale, tokenized[index]!, 0, undefined, base[index]),
    label: labels[index]!,
  }));
  const detection = averageOf(
    Array.from({ length: hyper.detectionSeeds }, (_, run) =>
      train(detectionExamples, {
        classes: DETECTION_CLASSES,
        multiLabel: true,
        epochs: hyper.epochs,
        learningRate: hyper.learningRate,
        l2: hyper.l2,
        seed: hyper.seed + run,
        minCount: hyper.minCount,
        dropout: hyper.featureDropout,
      }),
    ),
  );
  const conv =
    hyper.convFilters > 0
      ? trainConv(
          data.map((_, index) => ({
            rows: rowsOf(vectors, tokenized[index]!.words),
            label: labels[index]!,
          })),
          vectors,
          {
            filters: hyper.convFilters,
            classes: DETECTION_CLASSES,
            epochs: hyper.convEpochs,
            learningRate: hyper.convLearningRate,
            batch: hyper.convBatch,
            dropout: hyper.convDropout,
            wordDropout: hyper.convWordDropout,
            seed: hyper.seed + 200,
          },
        )
      : null;
  const partial: AspectModel = {
    version: VERSION,
    featureBits: FEATURE_BITS,
    threshold: hyper.threshold,
    clauseThreshold: hyper.clauseThreshold,
    lexiconFloor: hyper.lexiconFloor,
    gate: hyper.gate,
    vectorScale: hyper.vectorScale,
    detection,
    conv,
    convWeight: conv === null ? 0 : hyper.convWeight,
    polarity: { classes: 3, weights: new Map() },
    polarityConv: null,
    polarityConvWeight: 0,
    polarityConvSpan: hyper.polarityConvSpan,
    vectors,
  };
  const polarityExamples: Example[] = [];
  data.forEach((item, index) => {
    const inputs = new PolarityInputs(partial, tokenized[index]!, base[index]!);
    for (const { aspect, polarity } of item.aspects)
      polarityExamples.push({
        features: inputs.of(aspect).features,
        label: MODEL_POLARITIES.indexOf(polarity),
      });
  });
  const polarity = train(polarityExamples, {
    classes: 3,
    epochs: hyper.epochs,
    learningRate: hyper.learningRate,
    l2: hyper.l2,
    seed: hyper.seed + 100,
    minCount: hyper.minCount,
  });
  const polarityConv = trainPolarityConv(data, vectors, hyper, tokenized);
  return {
    ...partial,
    polarity,
    polarityConv,
    polarityConvWeight: polarityConv === null ? 0 : hyper.polarityConvWeight,
    polarityConvSpan: hyper.polarityConvSpan,
  };
}

/**
 * The polarity network (null when `polarityConvFilters` is 0): trained on whole sentences, a
 * sentence's label being its (aspect, polarity) pairs, with the detector's training settings.
 */
export function trainPolarityConv(
  data: readonly LabelledExample[],
  vectors: WordVectors,
  hyper: Hyperparameters,
  tokenized = data.map((item) => tokenizeForModel(item.text)),
): ConvDetector | null {
  if (hyper.polarityConvFilters <= 0) return null;
  return trainConv(
    data.map((item, index) => ({
      rows: rowsOf(vectors, tokenized[index]!.words),
      label: item.aspects.reduce(
        (bits, { aspect, polarity }) => bits | (1 << pairOf(aspect, polarity)),
        0,
      ),
    })),
    vectors,
    {
      filters: hyper.polarityConvFilters,
      classes: POLARITY_PAIRS,
      epochs: hyper.convEpochs,
      learningRate: hyper.convLearningRate,
      batch: hyper.convBatch,
      dropout: hyper.convDropout,
      seed: hyper.seed + 300,
    },
  );
}

/** The polarity network's output for an aspect's polarity. */
const pairOf = (aspect: AspectId, polarity: ModelPolarity) =>
  ASPECT_IDS.indexOf(aspect) * MODEL_POLARITIES.length + MODEL_POLARITIES.indexOf(polarity);

export interface ModelOpinion {
  aspect: AspectId;
  polarity: ModelPolarity;
  /** Detection probability. */
  probability: number;
  /** Polarity probabilities, in MODEL_POLARITIES order. */
  polarities: number[];
  /** The words of the clause the polarity leaned on. */
  clause: string;
}

/** The settings that decide which aspects a sentence reports. */
export type DecisionSettings = Pick<
  Hyperparameters,
  'threshold' | 'clauseThreshold' | 'lexiconFloor' | 'gate'
>;

/**
 * The "any aspect" probability of a sentence, from its detection probabilities and its clauses'
 * maxima (each with the ANY output last): the whole sentence's or one clause's, whichever is higher.
 */
export function anyProbabilityOf(sentence: readonly number[], clauses: readonly number[]): number {
  return Math.max(sentence[ANY]!, clauses[ANY]!);
}

/** Whether a sentence may report any aspect: its "any aspect" probability reaches the gate. */
export function passesGate(settings: DecisionSettings, anyProbability: number): boolean {
  return anyProbability >= settings.gate;
}

/**
 * Who reports an aspect, from its detection probabilities: nobody (null) when the sentence does not
 * pass the gate; the model, when the whole sentence or one clause reaches its threshold; the
 * owner's lexicon, when it names the aspect and the model gives it at least the floor; or nobody.
 * The one rule the pipeline, cross-validation and the choice of settings share.
 */
export function reportedBy(
  settings: DecisionSettings,
  probability: number,
  clauseProbability: number,
  namedByLexicon: boolean,
  anyProbability: number,
): 'model' | 'lexicon' | null {
  if (!passesGate(settings, anyProbability)) return null;
  if (probability >= settings.threshold || clauseProbability >= settings.clauseThreshold)
    return 'model';
  return namedByLexicon && probability >= settings.lexiconFloor ? 'lexicon' : null;
}

/** One sentence scored by the model: every aspect's detection probability, polarity on demand. */
export interface ScoredSentence {
  tokens: SentenceTokens;
  /**
   * What the probabilities are made of: the raw scores of the whole sentence and of each clause
   * (none for a sentence of one clause), per detector.
   */
  parts: { sentence: DetectionParts; clauses: DetectionParts[] };
  /** Detection probability of the whole sentence, per aspect in ASPECT_IDS order, then ANY. */
  probabilities: number[];
  /** The "any aspect" probability: the whole sentence's or one clause's, whichever is higher. */
  anyProbability: number;
  /**
   * The highest detection probability of any one clause, per aspect, then ANY; 0 for a sentence of
   * one clause (its clause is the sentence).
   */
  clauseProbabilities: number[];
  /** Per aspect: whether the sentence or one of its clauses reaches its threshold. */
  detected: boolean[];
  /** The aspect's polarity, from the clause that speaks most of it. */
  opinion(aspect: AspectId): ModelOpinion;
}

/**
 * A sentence's detection probabilities and, asked for, its aspects' polarities. With
 * `splitLongClauses` (the analyzer's reading), a clause of over LONG_CLAUSE_WORDS words is read in
 * parts as well as whole, each part as a clause; without it (training and its choice of
 * thresholds), clauses are as punctuation and contrast words end them.
 */
export function scoreSentence(
  model: AspectModel,
  tokens: SentenceTokens,
  { splitLongClauses = false }: { splitLongClauses?: boolean } = {},
): ScoredSentence {
  const base = featuresOf(tokens);
  const rows = vectorRows(model.vectors, tokens);
  const length = tokens.words.length;
  const conv = convSentence(model, rows);
  const sentence = partsOf(model, detectionScores(model, base, rows, 0, length), conv, 0, length);
  const inputs = new PolarityInputs(model, tokens, base, rows, splitLongClauses);
  const clauses =
    inputs.ranges.length > 1
      ? inputs.clauseScores.map((scores, index) =>
          partsOf(model, scores, conv, ...inputs.ranges[index]!),
        )
      : [];
  const probabilities = mixDetection(sentence, model.convWeight);
  const clauseProbabilities = clauseMaxima(clauses, model.convWeight);
  const anyProbability = anyProbabilityOf(probabilities, clauseProbabilities);
  // The polarity network's view and its scores per span, computed when first asked for.
  let polarityView: ConvSentence | undefined;
  const pairScores = new Map<number, number[]>();
  /** A mention's raw polarity scores: the polarity model's, mixed with the network's if any. */
  const polarityScores = (logits: number[], aspect: AspectId, clause: [number, number]) => {
    const { polarityConv: detector, polarityConvWeight: weight } = model;
    if (detector === null || weight === 0) return logits;
    polarityView ??= convView(detector, model.vectors, rows);
    const [from, to] = model.polarityConvSpan === 'clause' ? clause : [0, length];
    let pairs = pairScores.get(from);
    if (!pairs) {
      const { projected, before } = polarityView;
      pairs = convSpanScores(detector, projected, before[from]!, before[to]!);
      pairScores.set(from, pairs);
    }
    const first = pairOf(aspect, 'positive');
    return logits.map((score, p) => (1 - weight) * score + weight * pairs[first + p]!);
  };
  return {
    tokens,
    parts: { sentence, clauses },
    probabilities,
    anyProbability,
    clauseProbabilities,
    detected: ASPECT_IDS.map(
      (_, k) =>
        reportedBy(model, probabilities[k]!, clauseProbabilities[k]!, false, anyProbability) ===
        'model',
    ),
    opinion(aspect) {
      const { features, clause } = inputs.of(aspect);
      const polarities = softmax(polarityScores(scores(model.polarity, features), aspect, clause));
      const best = polarities.indexOf(Math.max(...polarities));
      return {
        aspect,
        polarity: MODEL_POLARITIES[best]!,
        probability: probabilities[ASPECT_IDS.indexOf(aspect)]!,
        polarities,
        clause: tokens.words.slice(clause[0], clause[1]).join(' '),
      };
    },
  };
}

/** The aspects detected at the model's thresholds, each with its polarity. */
export function predictAspects(model: AspectModel, text: string): ModelOpinion[] {
  const scored = scoreSentence(model, tokenizeForModel(text));
  return ASPECT_IDS.filter((_, index) => scored.detected[index]).map((aspect) =>
    scored.opinion(aspect),
  );
}

export interface SerializedModel {
  version: number;
  featureBits: number;
  threshold: number;
  clauseThreshold: number;
  lexiconFloor: number;
  gate: number;
  vectorScale: number;
  /** The digest of the word vectors the model was trained with. */
  vectors: string;
  convWeight: number;
  detection: Record<string, number[]>;
  conv: SerializedConv | null;
  polarity: Record<string, number[]>;
  /** Absent in models trained without a polarity network. */
  polarityConv?: SerializedConv | null;
  polarityConvWeight?: number;
  polarityConvSpan?: PolarityConvSpan;
}

/** Rounded, pruned and in bucket order: the same model always serializes to the same bytes. */
function serializeSparse(
  model: SparseModel,
  digits: number,
  negligible: number,
): Record<string, number[]> {
  const scale = 10 ** digits;
  const out: Record<string, number[]> = {};
  for (const bucket of [...model.weights.keys()].sort((a, b) => a - b)) {
    const row = Array.from(model.weights.get(bucket)!, (w) => Math.round(w * scale) / scale);
    if (row.some((w) => Math.abs(w) >= negligible)) out[String(bucket)] = row;
  }
  return out;
}

/**
 * The model as shipped. Buckets whose every weight is below `prune` are left out: they seldom
 * change a decision and they are most of the file (cross-validation scores the model in this form).
 */
export function serializeAspectModel(
  model: AspectModel,
  prune = DEFAULT_HYPERPARAMETERS.prune,
): string {
  const data: SerializedModel = {
    version: model.version,
    featureBits: model.featureBits,
    threshold: model.threshold,
    clauseThreshold: model.clauseThreshold,
    lexiconFloor: model.lexiconFloor,
    gate: model.gate,
    vectorScale: model.vectorScale,
    vectors: model.vectors.digest,
    convWeight: model.convWeight,
    detection: serializeSparse(model.detection, 2, prune),
    conv: model.conv === null ? null : serializeConv(model.conv),
    polarity: serializeSparse(model.polarity, 2, prune),
    // Left out without a polarity network, so that such a model's file is what it was.
    ...(model.polarityConv === null
      ? {}
      : {
          polarityConv: serializeConv(model.polarityConv),
          polarityConvWeight: model.polarityConvWeight,
          polarityConvSpan: model.polarityConvSpan,
        }),
  };
  return `${JSON.stringify(data)}\n`;
}

export function parseAspectModel(json: string, vectors: WordVectors): AspectModel {
  // The weight tables are read from the text straight into tables of hundredths; the rest, or a
  // file not in the saved form, is parsed as JSON.
  const split = splitModelJson(json, [
    ['detection', DETECTION_CLASSES],
    ['polarity', 3],
  ]);
  const rest = split && (JSON.parse(split.rest) as SerializedModel);
  // Each table read from the text must be the model's own: its key left empty at the top level.
  const own = (name: 'detection' | 'polarity') =>
    rest !== null && JSON.stringify(rest[name]) === '{}';
  if (rest === null || !own('detection') || !own('polarity'))
    return aspectModelFrom(JSON.parse(json) as SerializedModel, vectors);
  return aspectModelFrom(rest, vectors, split!.sections);
}

/**
 * The model from its parsed JSON and the word vectors it was trained with; `read` holds weight
 * tables already read from the text (`splitModelJson`), which stand for the JSON's.
 */
export function aspectModelFrom(
  data: SerializedModel,
  vectors: WordVectors,
  read: ReadonlyMap<string, HundredthsSection> = new Map(),
): AspectModel {
  if (data.version !== VERSION || data.featureBits !== FEATURE_BITS)
    throw new Error(
      `aspect model: expected version ${VERSION} with ${FEATURE_BITS}-bit features; retrain with npm run train:aspects`,
    );
  for (const name of ['threshold', 'clauseThreshold', 'lexiconFloor', 'gate'] as const) {
    const value: unknown = data[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(
        `aspect model: ${name} must be a number of at least 0, got ${JSON.stringify(value)}`,
      );
  }
  if (data.vectors !== vectors.digest)
    throw new Error(
      `aspect model: trained with word vectors ${data.vectors}, given ${vectors.digest}; retrain with npm run train:aspects`,
    );
  const sparse = (name: 'detection' | 'polarity', classes: number): SparseModel => {
    const section = read.get(name);
    if (section !== undefined)
      return sparseFromHundredths(classes, section.buckets, section.hundredths);
    const table: unknown = data[name];
    if (typeof table !== 'object' || table === null || Array.isArray(table))
      throw new Error(
        `aspect model: ${name} must be an object of weight rows, got ${JSON.stringify(table) ?? 'nothing'}; retrain with npm run train:aspects`,
      );
    const byBucket = table as Record<string, number[]>;
    const buckets = Object.keys(byBucket);
    const rows = new Float64Array(buckets.length * classes);
    for (let i = 0; i < buckets.length; i++) {
      const row = byBucket[buckets[i]!]!;
      if (row.length !== classes)
        throw new Error(
          `aspect model: bucket ${buckets[i]} has ${row.length} weights, expected ${classes}; retrain with npm run train:aspects`,
        );
      rows.set(row, i * classes);
    }
    return sparseFromRows(classes, buckets.map(Number), rows);
  };
  return {
    version: VERSION,
    featureBits: data.featureBits,
    threshold: data.threshold,
    clauseThreshold: data.clauseThreshold,
    lexiconFloor: data.lexiconFloor,
    gate: data.gate,
    vectorScale: data.vectorScale,
    detection: sparse('detection', DETECTION_CLASSES),
    conv: data.conv === null ? null : convFrom(data.conv, DETECTION_CLASSES),
    convWeight: data.conv === null ? 0 : data.convWeight,
    polarity: sparse('polarity', 3),
    ...polarityConvFrom(data),
    vectors,
  };
}

/** The polarity network's part of a model read from its file. */
function polarityConvFrom(
  data: SerializedModel,
): Pick<AspectModel, 'polarityConv' | 'polarityConvWeight' | 'polarityConvSpan'> {
  const { polarityConv, polarityConvWeight = 0, polarityConvSpan = 'sentence' } = data;
  if (polarityConv === undefined || polarityConv === null)
    return { polarityConv: null, polarityConvWeight: 0, polarityConvSpan: 'sentence' };
  if (!Number.isFinite(polarityConvWeight) || polarityConvWeight < 0 || polarityConvWeight > 1)
    throw new Error(
      `aspect model: polarityConvWeight must be a number from 0 to 1, got ${JSON.stringify(polarityConvWeight)}`,
    );
  if (polarityConvSpan !== 'sentence' && polarityConvSpan !== 'clause')
    throw new Error(
      `aspect model: polarityConvSpan must be "sentence" or "clause", got ${JSON.stringify(polarityConvSpan)}`,
    );
  return {
    polarityConv: convFrom(polarityConv, POLARITY_PAIRS, 'the polarity network'),
    polarityConvWeight,
    polarityConvSpan,
  };
}
