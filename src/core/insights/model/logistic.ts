// Logistic regression over hashed features (binary unless given values): one-vs-rest for aspect
// detection, softmax for polarity. Trained with seeded, shuffled AdaGrad and L2; deterministic for
// a seed. Pure.

/** A deterministic PRNG (mulberry32) for shuffling. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Example {
  features: readonly number[];
  /** Softmax: the class index. Multi-label (`multiLabel`): a bit per class, class c being bit c. */
  label: number;
  weight?: number;
  /** The value of each feature, in `features` order; every value is 1 when absent. */
  values?: readonly number[];
}

export interface TrainOptions {
  classes: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** Features seen in fewer examples than this get no weight (default 1: every feature). */
  minCount?: number;
  /**
   * One independent logistic regression per class (a sigmoid each, labels as bits), trained in one
   * pass over the examples: the same as `classes` binary models that share the example order.
   */
  multiLabel?: boolean;
  /**
   * Feature dropout: each feature of an example is left out of that example's step with this
   * probability, afresh each epoch, and the rest count 1/(1 - dropout) times (default 0: none).
   * A regularizer against leaning on one word: text by other writers often lacks it.
   */
  dropout?: number;
}

/** Weights as `classes` rows over the buckets that occur in training (sparse). */
export interface SparseModel {
  classes: number;
  weights: Map<number, Float64Array>;
}

/**
 * A model's weights laid out for scoring. `rows`: bucket → offset of its row in `rows` (-1: none).
 * `hundredths`: every weight is a whole number of hundredths (as a shipped model's are), so each
 * bucket's row sits at `bucket * stride` of one table of 16-bit integers, zeros where the model has
 * none. Scoring then reads one place per feature instead of two (the build scores about a thousand
 * features per sentence, at random places in 40 MB, and waits on memory for most of it), and sums
 * integers, so the order of the features cannot change the score.
 */
export type ScoringTable =
  | { kind: 'rows'; index: Int32Array; rows: Float64Array }
  | { kind: 'hundredths'; stride: number; cells: Int16Array };

const tables = new WeakMap<SparseModel, ScoringTable>();

/** A scoring table over `rows`, which hold the weights of `buckets[i]` at `i * classes`. */
function scoringTable(
  buckets: readonly number[],
  classes: number,
  rows: Float64Array,
): ScoringTable {
  if (rows.every((w) => Math.abs(w) <= 327.67 && Math.round(w * 100) / 100 === w))
    return hundredthsTable(buckets, classes, (k) => Math.round(rows[k]! * 100));
  let size = 0;
  for (const bucket of buckets) size = Math.max(size, bucket + 1);
  const index = new Int32Array(size).fill(-1);
  for (let i = 0; i < buckets.length; i++) index[buckets[i]!] = i * classes;
  return { kind: 'rows', index, rows };
}

/**
 * A table of hundredths whose row of `buckets[i]` holds `cellAt(i * classes + c)` for each class
 * c, each a whole number of hundredths that fits in 16 bits.
 */
function hundredthsTable(
  buckets: ArrayLike<number>,
  classes: number,
  cellAt: (k: number) => number,
): ScoringTable {
  let size = 0;
  for (let i = 0; i < buckets.length; i++) size = Math.max(size, buckets[i]! + 1);
  // A power of two, so that a row never straddles two cache lines.
  const stride = 2 ** Math.ceil(Math.log2(classes));
  // In shared memory, so that the build's other threads read this one table (shareSparse).
  const cells = new Int16Array(new SharedArrayBuffer(size * stride * Int16Array.BYTES_PER_ELEMENT));
  for (let i = 0; i < buckets.length; i++)
    for (let c = 0; c < classes; c++) cells[buckets[i]! * stride + c] = cellAt(i * classes + c);
  return { kind: 'hundredths', stride, cells };
}

/** The model's scoring table, built on first use: an array read per feature, not a Map lookup. */
function tableOf(model: SparseModel): ScoringTable {
  let table = tables.get(model);
  if (!table) {
    const buckets: number[] = [];
    const rows = new Float64Array(model.weights.size * model.classes);
    for (const [bucket, row] of model.weights) {
      rows.set(row, buckets.length * model.classes);
      buckets.push(bucket);
    }
    table = scoringTable(buckets, model.classes, rows);
    tables.set(model, table);
  }
  return table;
}

/**
 * A model from its rows as read back from a file: the weights of `buckets[i]` are
 * `rows[i * classes, (i + 1) * classes)`. Scoring reads its table; the `weights` Map (which
 * training and serializing use, and which costs a build a quarter of a second at the shipped
 * model's size) is built only when it is first asked for. As with any model, the weights must not
 * change once it has been scored with.
 */
export function sparseFromRows(
  classes: number,
  buckets: readonly number[],
  rows: Float64Array,
): SparseModel {
  return modelOver(classes, buckets, scoringTable(buckets, classes, rows));
}

/**
 * A model of whole hundredths from its rows as integers: the weights of `buckets[i]` are
 * `hundredths[i * classes, (i + 1) * classes)` hundredths. It is the model `sparseFromRows` makes
 * of the same weights as numbers, without them as numbers in between.
 */
export function sparseFromHundredths(
  classes: number,
  buckets: readonly number[],
  hundredths: Int16Array,
): SparseModel {
  return modelOver(
    classes,
    buckets,
    hundredthsTable(buckets, classes, (k) => hundredths[k]!),
  );
}

/** The model scored from `table`, whose weights Map (of `buckets`, in order) is built if asked. */
function modelOver(classes: number, buckets: readonly number[], table: ScoringTable): SparseModel {
  // A table of hundredths holds the weights exactly: no rows are kept beside it.
  const rowAt =
    table.kind === 'hundredths'
      ? cellReader(table.cells, table.stride, classes, buckets)
      : rowReader(table.rows, classes);
  let weights: Map<number, Float64Array> | undefined;
  const model: SparseModel = {
    classes,
    get weights() {
      weights ??= new Map(buckets.map((bucket, i) => [bucket, rowAt(i)]));
      return weights;
    },
  };
  tables.set(model, table);
  return model;
}

/**
 * A model as another thread is given it (by `postMessage` or `workerData`): its scoring table, whose
 * cells in shared memory (a table of hundredths) that thread reads in place rather than a copy.
 */
export interface SharedSparseModel {
  classes: number;
  table: ScoringTable;
}

export function shareSparse(model: SparseModel): SharedSparseModel {
  return { classes: model.classes, table: tableOf(model) };
}

/** The model another thread shared (`shareSparse`); its `weights` Map is built if asked for. */
export function sparseFromShared({ classes, table }: SharedSparseModel): SparseModel {
  let weights: Map<number, Float64Array> | undefined;
  const model: SparseModel = {
    classes,
    get weights() {
      weights ??= weightsOf(table, classes);
      return weights;
    },
  };
  tables.set(model, table);
  return model;
}

/** A table's rows as a `weights` Map; in a table of hundredths a row of zeros is no row. */
function weightsOf(table: ScoringTable, classes: number): Map<number, Float64Array> {
  const weights = new Map<number, Float64Array>();
  if (table.kind === 'rows') {
    table.index.forEach((at, bucket) => {
      if (at >= 0) weights.set(bucket, table.rows.subarray(at, at + classes));
    });
    return weights;
  }
  for (let at = 0; at < table.cells.length; at += table.stride) {
    const row = cellRow(table.cells, at, classes);
    if (row.some((w) => w !== 0)) weights.set(at / table.stride, row);
  }
  return weights;
}

function rowReader(rows: Float64Array, classes: number): (i: number) => Float64Array {
  return (i) => rows.subarray(i * classes, (i + 1) * classes);
}

function cellReader(
  cells: Int16Array,
  stride: number,
  classes: number,
  buckets: readonly number[],
): (i: number) => Float64Array {
  return (i) => cellRow(cells, buckets[i]! * stride, classes);
}

/** The weights of the row at `at` of a table of hundredths. */
function cellRow(cells: Int16Array, at: number, classes: number): Float64Array {
  return Float64Array.from(cells.subarray(at, at + classes), (cell) => cell / 100);
}

/**
 * The mean of models trained on the same examples with different seeds. One run's weights depend on
 * the order it met the examples in; their mean is steadier.
 */
export function averageOf(models: readonly SparseModel[]): SparseModel {
  const [first] = models;
  if (first === undefined) throw new Error('averageOf: no models');
  if (models.length === 1) return first;
  const weights = new Map<number, Float64Array>();
  for (const model of models)
    for (const [bucket, row] of model.weights) {
      let mean = weights.get(bucket);
      if (mean === undefined) weights.set(bucket, (mean = new Float64Array(first.classes)));
      for (let c = 0; c < row.length; c++) mean[c]! += row[c]! / models.length;
    }
  return { classes: first.classes, weights };
}

/**
 * The weights of one bucket (undefined: the model has none for it; in a table of hundredths, also
 * when all its weights are 0, which scores as none).
 */
export function rowOf(model: SparseModel, bucket: number): Float64Array | undefined {
  const table = tableOf(model);
  if (table.kind === 'rows') {
    const at = table.index[bucket] ?? -1;
    return at < 0 ? undefined : table.rows.subarray(at, at + model.classes);
  }
  const { stride, cells } = table;
  const at = bucket * stride;
  if (at >= cells.length) return undefined;
  const row = cellRow(cells, at, model.classes);
  return row.some((w) => w !== 0) ? row : undefined;
}

/**
 * The sums of the rows of `features` in a table of hundredths, by class. The rows of the shipped
 * models are 16 cells (detection) and 4 (polarity) wide; for those the sums are kept in locals
 * over the whole row (padding cells are 0), which the build's profile showed a third faster than
 * an array of sums. The sums are of integers, exact whatever their order.
 */
function sumRows16(cells: Int16Array, features: readonly number[]): number[] {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    s5 = 0,
    s6 = 0,
    s7 = 0;
  let s8 = 0,
    s9 = 0,
    s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0,
    s14 = 0,
    s15 = 0;
  const limit = cells.length;
  for (let k = 0; k < features.length; k++) {
    const at = features[k]! * 16;
    if (at >= limit) continue;
    s0 += cells[at]!;
    s1 += cells[at + 1]!;
    s2 += cells[at + 2]!;
    s3 += cells[at + 3]!;
    s4 += cells[at + 4]!;
    s5 += cells[at + 5]!;
    s6 += cells[at + 6]!;
    s7 += cells[at + 7]!;
    s8 += cells[at + 8]!;
    s9 += cells[at + 9]!;
    s10 += cells[at + 10]!;
    s11 += cells[at + 11]!;
    s12 += cells[at + 12]!;
    s13 += cells[at + 13]!;
    s14 += cells[at + 14]!;
    s15 += cells[at + 15]!;
  }
  return [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15];
}

function sumRows4(cells: Int16Array, features: readonly number[]): number[] {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  const limit = cells.length;
  for (let k = 0; k < features.length; k++) {
    const at = features[k]! * 4;
    if (at >= limit) continue;
    s0 += cells[at]!;
    s1 += cells[at + 1]!;
    s2 += cells[at + 2]!;
    s3 += cells[at + 3]!;
  }
  return [s0, s1, s2, s3];
}

function sumRows(
  table: { stride: number; cells: Int16Array },
  classes: number,
  features: readonly number[],
  values: readonly number[] | undefined,
): Float64Array {
  const { stride, cells } = table;
  const sums = new Float64Array(classes);
  for (let k = 0; k < features.length; k++) {
    const at = features[k]! * stride;
    if (at >= cells.length) continue;
    const value = values ? values[k]! : 1;
    for (let c = 0; c < classes; c++) sums[c]! += value * cells[at + c]!;
  }
  return sums;
}

/**
 * Each class's raw score; `values` as in Example. The model's weights must not change once it has
 * been scored with.
 */
export function scores(
  model: SparseModel,
  features: readonly number[],
  values?: readonly number[],
): number[] {
  const table = tableOf(model);
  const classes = model.classes;
  if (table.kind === 'hundredths') {
    const sums =
      values === undefined && table.stride === 16
        ? sumRows16(table.cells, features)
        : values === undefined && table.stride === 4
          ? sumRows4(table.cells, features)
          : sumRows(table, classes, features, values);
    const out = new Array<number>(classes);
    for (let c = 0; c < classes; c++) out[c] = sums[c]! / 100;
    return out;
  }
  const out = new Array<number>(classes).fill(0);
  const { index, rows } = table;
  for (let k = 0; k < features.length; k++) {
    const at = index[features[k]!] ?? -1;
    if (at < 0) continue;
    const value = values ? values[k]! : 1;
    for (let c = 0; c < classes; c++) out[c]! += value * rows[at + c]!;
  }
  return out;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function softmax(values: readonly number[]): number[] {
  const max = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * Trains a model: with `multiLabel` one logistic regression per class, otherwise a softmax over
 * `classes` labels.
 */
export function train(examples: readonly Example[], options: TrainOptions): SparseModel {
  const { classes, epochs, learningRate, l2 } = options;
  const weights = new Map<number, Float64Array>();
  const squares = new Map<number, Float64Array>();
  const minCount = options.minCount ?? 1;
  const counts = new Map<number, number>();
  if (minCount > 1)
    for (const example of examples)
      for (const feature of example.features) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  for (const example of examples)
    for (const feature of example.features)
      if (!weights.has(feature) && (minCount <= 1 || counts.get(feature)! >= minCount)) {
        weights.set(feature, new Float64Array(classes));
        squares.set(feature, new Float64Array(classes).fill(1e-8));
      }
  // Each example's weight and AdaGrad rows, looked up once instead of in every epoch; a feature
  // seen fewer than minCount times has none (a shared zero row that is never updated).
  const unused = new Float64Array(classes);
  const unusedSquares = new Float64Array(classes).fill(1);
  const rowsOf = examples.map((example) => example.features.map((f) => weights.get(f) ?? unused));
  const squaresOf = examples.map((example) =>
    example.features.map((f) => squares.get(f) ?? unusedSquares),
  );
  const order = examples.map((_, index) => index);
  const random = seededRandom(options.seed);
  const raw = new Float64Array(classes);
  const gradient = new Float64Array(classes);
  const dropout = options.dropout ?? 0;
  // Its own generator, so that without dropout the shuffles (and the model) are what they were.
  const dropRandom = seededRandom(options.seed + 7);
  // 1 without dropout.
  const keepScale = 1 / (1 - dropout);
  let kept = new Uint8Array(0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const index of order) {
      const example = examples[index]!;
      const rows = rowsOf[index]!;
      const squareRows = squaresOf[index]!;
      const values = example.values;
      if (dropout > 0) {
        if (kept.length < rows.length) kept = new Uint8Array(rows.length * 2);
        for (let k = 0; k < rows.length; k++) kept[k] = dropRandom() < dropout ? 0 : 1;
      }
      raw.fill(0);
      for (let k = 0; k < rows.length; k++) {
        if (dropout > 0 && kept[k] === 0) continue;
        const row = rows[k]!;
        const value = (values ? values[k]! : 1) * keepScale;
        for (let c = 0; c < classes; c++) raw[c]! += value * row[c]!;
      }
      if (options.multiLabel) {
        for (let c = 0; c < classes; c++)
          gradient[c] = sigmoid(raw[c]!) - ((example.label >>> c) & 1);
      } else {
        const probabilities = softmax(Array.from(raw));
        for (let c = 0; c < classes; c++)
          gradient[c] = probabilities[c]! - (c === example.label ? 1 : 0);
      }
      const weight = example.weight ?? 1;
      for (let k = 0; k < rows.length; k++) {
        const row = rows[k]!;
        if (row === unused || (dropout > 0 && kept[k] === 0)) continue;
        const square = squareRows[k]!;
        const value = (values ? values[k]! : 1) * keepScale;
        for (let c = 0; c < classes; c++) {
          const g = weight * value * gradient[c]! + l2 * row[c]!;
          square[c]! += g * g;
          row[c]! -= (learningRate * g) / Math.sqrt(square[c]!);
        }
      }
    }
  }
  return { classes, weights };
}
