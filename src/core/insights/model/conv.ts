// A small convolutional aspect detector over the pretrained word vectors: filters three words wide
// slide over the sentence, each keeps its strongest match (max-pooling) and one sigmoid per aspect
// reads the pooled filters. Unlike the hashed features it reads word order with the words'
// meanings, so a phrasing the corpus never used ("the crew left the place spotless" against
// "the site was immaculate afterwards") can still match what a filter learned. Trained with seeded
// Adam and dropout: deterministic for a seed. Pure.
import { seededRandom, sigmoid } from './logistic.ts';
import { DIMENSIONS, VECTOR_UNIT, type WordVectors } from './word-vectors.ts';

/** Words a filter spans: the word before, the word, the word after. */
export const WIDTH = 3;
/** What a stored vector byte is multiplied by: unit vectors become components of about ±1. */
const INPUT_SCALE = 10 / VECTOR_UNIT;

export interface ConvDetector {
  filters: number;
  classes: number;
  /** Filter f's weight for dimension d of the word at offset k: [(f * WIDTH + k) * DIMENSIONS + d]. */
  kernel: Float64Array;
  /** Per filter. */
  bias: Float64Array;
  /** Class c's weight for filter f: [c * filters + f]. */
  output: Float64Array;
  /** Per class. */
  outputBias: Float64Array;
}

export interface ConvTrainOptions {
  filters: number;
  classes: number;
  epochs: number;
  learningRate: number;
  batch: number;
  /** The share of pooled filters dropped for each training example. */
  dropout: number;
  /**
   * The share of a training sentence's words left out of it, afresh each epoch (at least one word
   * is kept): a regularizer for text whose words the corpus did not use, or that has no vector.
   */
  wordDropout?: number;
  seed: number;
}

export interface ConvExample {
  /** The word-vector rows of the sentence's words that have one, in order. */
  rows: Int32Array;
  /** A bit per class, class c being bit c. */
  label: number;
}

/** The word-vector rows of the words in [from, to) that have one, in order. */
export function rowsOf(
  vectors: WordVectors,
  words: readonly string[],
  from = 0,
  to = words.length,
): Int32Array {
  const rows: number[] = [];
  for (let i = from; i < to; i++) {
    const row = vectors.index.get(words[i]!);
    if (row !== undefined) rows.push(row);
  }
  return Int32Array.from(rows);
}

/**
 * Per word row, what each of its WIDTH offsets adds to each filter (WIDTH × filters numbers, in
 * [k * filters + f] order), computed once per word and detector: a filter's response at a position
 * is the sum of three of these, so scoring a sentence costs additions, not products.
 */
const projections = new WeakMap<ConvDetector, Map<number, Float32Array>>();

function projectionOf(
  detector: ConvDetector,
  vectors: WordVectors,
  row: number,
  cache: Map<number, Float32Array>,
): Float32Array {
  let out = cache.get(row);
  if (!out) {
    out = new Float32Array(WIDTH * detector.filters);
    project(detector, vectors, row, out);
    cache.set(row, out);
  }
  return out;
}

/** Writes row's projection (as `projectionOf` lays it out) into `out`. */
function project(
  detector: ConvDetector,
  vectors: WordVectors,
  row: number,
  out: Float32Array | Float64Array,
): void {
  const { filters, kernel } = detector;
  const offset = row * DIMENSIONS;
  for (let f = 0; f < filters; f++)
    for (let k = 0; k < WIDTH; k++) {
      const at = (f * WIDTH + k) * DIMENSIONS;
      let sum = 0;
      for (let d = 0; d < DIMENSIONS; d++) sum += kernel[at + d]! * vectors.data[offset + d]!;
      out[k * filters + f] = sum * INPUT_SCALE;
    }
}

/**
 * Pooled filters of the row sequence [from, to) from its words' projections: filter f's largest
 * response over the positions (zero padding at both ends of the span), and where it was (an index
 * into `projected`, not into the span; -1 when no response is above zero), when `argmax` is given
 * (training needs it, scoring does not).
 */
function pool(
  detector: ConvDetector,
  projected: readonly (Float32Array | Float64Array)[],
  pooled: Float64Array,
  argmax: Int32Array | null,
  from = 0,
  to = projected.length,
): void {
  const { filters, bias } = detector;
  pooled.fill(0, 0, filters);
  argmax?.fill(-1);
  if (from >= to) return;
  // The neighbour of a span's first and last word is zero padding: a row of zeros, which adds
  // nothing, read as if it were a word's.
  const none = zerosLike(projected[from]!, WIDTH * filters);
  const last = 2 * filters;
  for (let t = from; t < to; t++) {
    const here = projected[t]!;
    const before = t > from ? projected[t - 1]! : none;
    const after = t + 1 < to ? projected[t + 1]! : none;
    for (let f = 0; f < filters; f++) {
      const response = bias[f]! + here[filters + f]! + before[f]! + after[last + f]!;
      if (response > pooled[f]!) {
        pooled[f] = response;
        if (argmax !== null) argmax[f] = t;
      }
    }
  }
}

let zeros32 = new Float32Array(0);
let zeros64 = new Float64Array(0);

/** At least `length` zeros, of the same kind as `row` (so that reading them costs what a row does). */
function zerosLike(row: Float32Array | Float64Array, length: number): Float32Array | Float64Array {
  if (row instanceof Float32Array) {
    if (zeros32.length < length) zeros32 = new Float32Array(length);
    return zeros32;
  }
  if (zeros64.length < length) zeros64 = new Float64Array(length);
  return zeros64;
}

/** The filters `classScores` reads, reused from call to call. */
let firing = new Int32Array(0);

/** Each class's raw score from the pooled filters. */
function classScores(detector: ConvDetector, pooled: Float64Array, out: Float64Array): void {
  const { filters, classes, output, outputBias } = detector;
  // Most pooled filters are 0 (about four in five, on the shipped detectors), and adding their
  // products adds nothing: only the others are read, in the same order.
  if (firing.length < filters) firing = new Int32Array(filters);
  let count = 0;
  for (let f = 0; f < filters; f++) if (pooled[f] !== 0) firing[count++] = f;
  for (let c = 0; c < classes; c++) {
    let sum = outputBias[c]!;
    const row = c * filters;
    for (let i = 0; i < count; i++) {
      const f = firing[i]!;
      sum += output[row + f]! * pooled[f]!;
    }
    out[c] = sum;
  }
}

/**
 * The projections of a sequence of word-vector rows, for `convSpanScores`: computed once per word
 * and detector. The detector's weights must not change once it has been scored with.
 */
export function convProjections(
  detector: ConvDetector,
  vectors: WordVectors,
  rows: ArrayLike<number>,
): Float32Array[] {
  let cache = projections.get(detector);
  if (!cache) {
    cache = new Map();
    projections.set(detector, cache);
  }
  return Array.from({ length: rows.length }, (_, i) =>
    projectionOf(detector, vectors, rows[i]!, cache),
  );
}

/**
 * Each class's raw score (log-odds) for the rows [from, to) of a projected sequence, as if they
 * were the whole sequence (an empty span reads only the biases): a sentence's clauses are scored
 * from the sentence's projections.
 */
export function convSpanScores(
  detector: ConvDetector,
  projected: readonly Float32Array[],
  from = 0,
  to = projected.length,
): number[] {
  if (spanPooled.length < detector.filters) spanPooled = new Float64Array(detector.filters);
  if (spanScores.length < detector.classes) spanScores = new Float64Array(detector.classes);
  pool(detector, projected, spanPooled, null, from, to);
  classScores(detector, spanPooled, spanScores);
  return Array.from(spanScores.subarray(0, detector.classes));
}

/** `convSpanScores`'s pooled filters and scores, reused from call to call. */
let spanPooled = new Float64Array(0);
let spanScores = new Float64Array(0);

/** Each class's raw score (log-odds) for a sequence of word-vector rows. */
export function convScores(
  detector: ConvDetector,
  vectors: WordVectors,
  rows: ArrayLike<number>,
): number[] {
  return convSpanScores(detector, convProjections(detector, vectors, rows));
}

/** Each class's probability for a sequence of word-vector rows. */
export function convProbabilities(
  detector: ConvDetector,
  vectors: WordVectors,
  rows: ArrayLike<number>,
): number[] {
  return convScores(detector, vectors, rows).map(sigmoid);
}

/** Trains a detector with one sigmoid per class (multi-label). */
export function trainConv(
  examples: readonly ConvExample[],
  vectors: WordVectors,
  options: ConvTrainOptions,
): ConvDetector {
  const { filters, classes, epochs, learningRate, batch, dropout } = options;
  const random = seededRandom(options.seed);
  const uniform = (limit: number) => (random() * 2 - 1) * limit;
  const kernelLimit = Math.sqrt(6 / (WIDTH * DIMENSIONS + filters));
  const outputLimit = Math.sqrt(6 / (filters + classes));
  // Each class's output bias starts at its prior log-odds, so early steps shape the filters rather
  // than the base rates.
  const prior = (c: number) =>
    (examples.filter((e) => (e.label >>> c) & 1).length + 1) / (examples.length + 2);
  const detector: ConvDetector = {
    filters,
    classes,
    kernel: Float64Array.from({ length: filters * WIDTH * DIMENSIONS }, () => uniform(kernelLimit)),
    bias: new Float64Array(filters),
    output: Float64Array.from({ length: classes * filters }, () => uniform(outputLimit)),
    outputBias: Float64Array.from({ length: classes }, (_, c) =>
      Math.log(prior(c) / (1 - prior(c))),
    ),
  };
  const parameters = [detector.kernel, detector.bias, detector.output, detector.outputBias];
  const gradients = parameters.map((p) => new Float64Array(p.length));
  const firstMoments = parameters.map((p) => new Float64Array(p.length));
  const secondMoments = parameters.map((p) => new Float64Array(p.length));
  const [gKernel, gBias, gOutput, gOutputBias] = gradients as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];
  let step = 0;
  const update = () => {
    step++;
    const correction1 = 1 - beta1 ** step;
    const correction2 = 1 - beta2 ** step;
    parameters.forEach((values, p) => {
      const g = gradients[p]!;
      const m = firstMoments[p]!;
      const v = secondMoments[p]!;
      for (let i = 0; i < values.length; i++) {
        const gi = g[i]! / batch;
        m[i] = beta1 * m[i]! + (1 - beta1) * gi;
        v[i] = beta2 * v[i]! + (1 - beta2) * gi * gi;
        values[i]! -=
          (learningRate * (m[i]! / correction1)) / (Math.sqrt(v[i]! / correction2) + epsilon);
      }
      g.fill(0);
    });
  };

  const longest = Math.max(1, ...examples.map((e) => e.rows.length));
  const projected = Array.from({ length: longest }, () => new Float64Array(WIDTH * filters));
  const pooled = new Float64Array(filters);
  const argmax = new Int32Array(filters);
  const kept = new Float64Array(filters);
  const raw = new Float64Array(classes);
  const delta = new Float64Array(classes);
  const order = examples.map((_, index) => index);
  const keepScale = 1 / (1 - dropout);
  const wordDropout = options.wordDropout ?? 0;
  // Its own generator, so that without word dropout the model is what it was.
  const wordRandom = seededRandom(options.seed + 7);
  const words = new Int32Array(longest);
  let inBatch = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const index of order) {
      const example = examples[index]!;
      const { label } = example;
      let rows = example.rows;
      if (wordDropout > 0 && rows.length > 1) {
        let count = 0;
        for (let t = 0; t < rows.length; t++)
          if (wordRandom() >= wordDropout) words[count++] = rows[t]!;
        if (count === 0) words[count++] = rows[Math.floor(wordRandom() * rows.length)]!;
        rows = words.subarray(0, count);
      }
      for (let t = 0; t < rows.length; t++) project(detector, vectors, rows[t]!, projected[t]!);
      pool(detector, projected, pooled, argmax, 0, rows.length);
      for (let f = 0; f < filters; f++) kept[f] = random() < dropout ? 0 : pooled[f]! * keepScale;
      classScores(detector, kept, raw);
      for (let c = 0; c < classes; c++) {
        delta[c] = sigmoid(raw[c]!) - ((label >>> c) & 1);
        gOutputBias[c]! += delta[c]!;
        for (let f = 0; f < filters; f++) gOutput[c * filters + f]! += delta[c]! * kept[f]!;
      }
      for (let f = 0; f < filters; f++) {
        const t = argmax[f]!;
        if (t < 0 || kept[f] === 0) continue;
        let back = 0;
        for (let c = 0; c < classes; c++) back += delta[c]! * detector.output[c * filters + f]!;
        back *= keepScale;
        gBias[f]! += back;
        for (let k = 0; k < WIDTH; k++) {
          const position = t + k - 1;
          if (position < 0 || position >= rows.length) continue;
          const offset = rows[position]! * DIMENSIONS;
          const at = (f * WIDTH + k) * DIMENSIONS;
          const scaled = back * INPUT_SCALE;
          for (let d = 0; d < DIMENSIONS; d++)
            gKernel[at + d]! += scaled * vectors.data[offset + d]!;
        }
      }
      if (++inBatch === batch) {
        update();
        inBatch = 0;
      }
    }
  }
  if (inBatch > 0) update();
  return detector;
}

export interface SerializedConv {
  filters: number;
  kernel: number[];
  bias: number[];
  output: number[];
  outputBias: number[];
}

/** Rounded to `digits` decimals: the same detector always serializes to the same numbers. */
export function serializeConv(detector: ConvDetector, digits = 4): SerializedConv {
  const scale = 10 ** digits;
  const round = (values: Float64Array) => Array.from(values, (v) => Math.round(v * scale) / scale);
  return {
    filters: detector.filters,
    kernel: round(detector.kernel),
    bias: round(detector.bias),
    output: round(detector.output),
    outputBias: round(detector.outputBias),
  };
}

/** A network read back from the model file; `what` names it in the error a bad one gives. */
export function convFrom(
  data: SerializedConv,
  classes: number,
  what = 'the convolutional detector',
): ConvDetector {
  const { filters } = data;
  const expect = (name: string, values: readonly number[], length: number) => {
    if (!Array.isArray(values) || values.length !== length)
      throw new Error(
        `aspect model: ${what}'s ${name} needs ${length} numbers, found ${Array.isArray(values) ? values.length : typeof values}; retrain with npm run train:aspects`,
      );
    return Float64Array.from(values);
  };
  return {
    filters,
    classes,
    kernel: expect('kernel', data.kernel, filters * WIDTH * DIMENSIONS),
    bias: expect('bias', data.bias, filters),
    output: expect('output', data.output, classes * filters),
    outputBias: expect('outputBias', data.outputBias, classes),
  };
}
