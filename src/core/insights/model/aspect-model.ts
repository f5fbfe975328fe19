// The learned aspect model: per-aspect detection (one-vs-rest logistic regression) and per-mention
// polarity (softmax over positive/negative/neutral) over hashed sentence features, trained from the
// labelled corpus by `npm run train:aspects` and shipped as data (aspect-model.json). Polarity
// reads the whole sentence plus the clause that most evidences the aspect, so "great roof but the
// office never called back" gets each stance from its own clause.
import type { AspectId } from '../lexicon.ts';
import { ASPECT_IDS } from '../lexicon.ts';
import { FEATURE_BITS, featuresOf, tokenizeForModel, type SentenceTokens } from './features.ts';
import { scores, sigmoid, softmax, train, type Example, type SparseModel } from './logistic.ts';

export const MODEL_POLARITIES = ['positive', 'negative', 'neutral'] as const;
export type ModelPolarity = (typeof MODEL_POLARITIES)[number];

export interface LabelledExample {
  text: string;
  aspects: readonly { aspect: AspectId; polarity: ModelPolarity }[];
}

export interface AspectModel {
  version: number;
  featureBits: number;
  /** Detection probability at or above which an aspect is reported. */
  threshold: number;
  detection: SparseModel;
  polarity: SparseModel;
}

export interface Hyperparameters {
  epochs: number;
  learningRate: number;
  l2: number;
  threshold: number;
  seed: number;
}

export const DEFAULT_HYPERPARAMETERS: Hyperparameters = {
  epochs: 12,
  learningRate: 0.3,
  l2: 1e-5,
  threshold: 0.9,
  seed: 20261125,
};

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
 * What the polarity part reads for one aspect of one sentence: the sentence's features, those of
 * the clause whose words score highest for the aspect (its focus), and that clause's words
 * conjoined with the aspect. Clause scores and features are computed once per sentence and shared
 * by every aspect asked for.
 */
class PolarityInputs {
  #ranges: [number, number][] | undefined;
  #clauseScores: number[][] | undefined;
  readonly #focusFeatures = new Map<number, number[]>();

  readonly detection: SparseModel;
  readonly tokens: SentenceTokens;
  readonly base: readonly number[];

  constructor(detection: SparseModel, tokens: SentenceTokens, base: readonly number[]) {
    this.detection = detection;
    this.tokens = tokens;
    this.base = base;
  }

  /** The clause (word range) whose words score highest for the aspect. */
  focus(aspectIndex: number): [number, number] {
    this.#ranges ??= clauseRanges(this.tokens);
    this.#clauseScores ??= this.#ranges.map(([from, to]) =>
      scores(this.detection, featuresOf(this.tokens, from, to)),
    );
    let best = 0;
    for (let k = 1; k < this.#ranges.length; k++)
      if (this.#clauseScores[k]![aspectIndex]! > this.#clauseScores[best]![aspectIndex]!) best = k;
    return this.#ranges[best] ?? [0, this.tokens.words.length];
  }

  of(aspect: AspectId): { features: number[]; clause: [number, number] } {
    const clause = this.focus(ASPECT_IDS.indexOf(aspect));
    let focus = this.#focusFeatures.get(clause[0]);
    if (!focus) {
      focus = featuresOf(this.tokens, clause[0], clause[1], 'k:');
      this.#focusFeatures.set(clause[0], focus);
    }
    const conjoined = featuresOf(this.tokens, clause[0], clause[1], `${aspect}|`);
    return { features: [...new Set([...this.base, ...focus, ...conjoined])], clause };
  }
}

/** Trains both parts from labelled sentences; the same data and seed give the same model. */
export function trainAspectModel(
  data: readonly LabelledExample[],
  hyper: Hyperparameters = DEFAULT_HYPERPARAMETERS,
): AspectModel {
  const tokenized = data.map((item) => tokenizeForModel(item.text));
  const base = tokenized.map((tokens) => featuresOf(tokens));
  // One logistic regression per aspect (one-vs-rest), trained together in one pass: a label bit
  // per aspect.
  const detection = train(
    data.map((item, index) => ({
      features: base[index]!,
      label: ASPECT_IDS.reduce(
        (bits, aspect, column) =>
          item.aspects.some((a) => a.aspect === aspect) ? bits | (1 << column) : bits,
        0,
      ),
    })),
    {
      classes: ASPECT_IDS.length,
      multiLabel: true,
      epochs: hyper.epochs,
      learningRate: hyper.learningRate,
      l2: hyper.l2,
      seed: hyper.seed,
    },
  );
  const polarityExamples: Example[] = [];
  data.forEach((item, index) => {
    const inputs = new PolarityInputs(detection, tokenized[index]!, base[index]!);
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
  });
  return { version: 1, featureBits: FEATURE_BITS, threshold: hyper.threshold, detection, polarity };
}

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

/** Every aspect's detection probability, for a sentence. */
export function detectionProbabilities(model: AspectModel, tokens: SentenceTokens): number[] {
  return scores(model.detection, featuresOf(tokens)).map(sigmoid);
}

/** One sentence scored by the model: every aspect's detection probability, polarity on demand. */
export interface ScoredSentence {
  tokens: SentenceTokens;
  /** Detection probability per aspect, in ASPECT_IDS order. */
  probabilities: number[];
  /** The aspect's polarity, from the clause that speaks most of it. */
  opinion(aspect: AspectId): ModelOpinion;
}

export function scoreSentence(model: AspectModel, tokens: SentenceTokens): ScoredSentence {
  const base = featuresOf(tokens);
  const probabilities = scores(model.detection, base).map(sigmoid);
  const inputs = new PolarityInputs(model.detection, tokens, base);
  return {
    tokens,
    probabilities,
    opinion(aspect) {
      const { features, clause } = inputs.of(aspect);
      const polarities = softmax(scores(model.polarity, features));
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

/** The aspects detected at the model's threshold, each with its polarity. */
export function predictAspects(model: AspectModel, text: string): ModelOpinion[] {
  const scored = scoreSentence(model, tokenizeForModel(text));
  return ASPECT_IDS.filter((_, index) => scored.probabilities[index]! >= model.threshold).map(
    (aspect) => scored.opinion(aspect),
  );
}

export interface SerializedModel {
  version: number;
  featureBits: number;
  threshold: number;
  detection: Record<string, number[]>;
  polarity: Record<string, number[]>;
}

/** Rounded, pruned and in bucket order: the same model always serializes to the same bytes. */
function serializeSparse(model: SparseModel, digits: number): Record<string, number[]> {
  const scale = 10 ** digits;
  // Buckets whose every weight is this small change no decision; leaving them out keeps the file small.
  const negligible = 0.02;
  const out: Record<string, number[]> = {};
  for (const bucket of [...model.weights.keys()].sort((a, b) => a - b)) {
    const row = Array.from(model.weights.get(bucket)!, (w) => Math.round(w * scale) / scale);
    if (row.some((w) => Math.abs(w) >= negligible)) out[String(bucket)] = row;
  }
  return out;
}

export function serializeAspectModel(model: AspectModel): string {
  const data: SerializedModel = {
    version: model.version,
    featureBits: model.featureBits,
    threshold: model.threshold,
    detection: serializeSparse(model.detection, 2),
    polarity: serializeSparse(model.polarity, 2),
  };
  return `${JSON.stringify(data)}\n`;
}

export function parseAspectModel(json: string): AspectModel {
  return aspectModelFrom(JSON.parse(json) as SerializedModel);
}

/** The model from its parsed JSON. */
export function aspectModelFrom(data: SerializedModel): AspectModel {
  if (data.version !== 1 || data.featureBits !== FEATURE_BITS)
    throw new Error(
      `aspect model: expected version 1 with ${FEATURE_BITS}-bit features; retrain with npm run train:aspects`,
    );
  const sparse = (table: Record<string, number[]>, classes: number): SparseModel => ({
    classes,
    weights: new Map(
      Object.entries(table).map(([bucket, row]) => [Number(bucket), Float64Array.from(row)]),
    ),
  });
  return {
    version: 1,
    featureBits: data.featureBits,
    threshold: data.threshold,
    detection: sparse(data.detection, ASPECT_IDS.length),
    polarity: sparse(data.polarity, 3),
  };
}
