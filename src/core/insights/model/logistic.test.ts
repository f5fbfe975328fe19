import { expect, test } from 'vitest';
import {
  averageOf,
  rowOf,
  scores,
  shareSparse,
  sparseFromRows,
  sparseFromShared,
  train,
  type SparseModel,
} from './logistic.ts';

const trained = (seed = 1): SparseModel =>
  train(
    [
      { features: [7, 2], label: 0 },
      { features: [7, 40], label: 1 },
      { features: [2, 40, 9], label: 2 },
    ],
    { classes: 3, epochs: 3, learningRate: 0.3, l2: 0, seed },
  );

test('a model read back from its rows scores, and gives its weights, as the one it was read from', () => {
  const model = trained();
  const buckets = [...model.weights.keys()].reverse();
  const rows = new Float64Array(buckets.length * 3);
  buckets.forEach((bucket, i) => rows.set(model.weights.get(bucket)!, i * 3));
  const read = sparseFromRows(3, buckets, rows);
  for (const features of [[7], [2, 40], [9, 7, 2, 40], [1000, 9], []])
    expect(scores(read, features)).toEqual(scores(model, features));
  expect(scores(read, [2, 9], [0.5, 2])).toEqual(scores(model, [2, 9], [0.5, 2]));
  expect([...read.weights.keys()].sort((a, b) => a - b)).toEqual([2, 7, 9, 40]);
  for (const bucket of [2, 7, 9, 40]) {
    expect([...read.weights.get(bucket)!]).toEqual([...model.weights.get(bucket)!]);
    expect([...rowOf(read, bucket)!]).toEqual([...model.weights.get(bucket)!]);
  }
  expect(rowOf(read, 3)).toBeUndefined();
  expect(rowOf(read, 1 << 22)).toBeUndefined();
});

test('a model of whole hundredths (as shipped) sums its weights exactly, whatever their order', () => {
  const buckets = [5, 1, 1 << 20];
  const rows = Float64Array.from([0.1, -0.07, 0.2, 0, 0.3, 1.25]);
  const read = sparseFromRows(2, buckets, rows);
  // Summed as doubles, 0.1 + 0.2 is 0.30000000000000004 and 0.2 + 0.1 is the same; 0.1 + 0.2 + 0.3
  // and 0.3 + 0.2 + 0.1 are not equal. Here both are 0.6.
  expect(scores(read, [5, 1])).toEqual([0.3, -0.07]);
  expect(scores(read, [5, 1, 1 << 20])).toEqual([0.6, 1.18]);
  expect(scores(read, [1 << 20, 1, 5])).toEqual([0.6, 1.18]);
  expect(scores(read, [5, 1 << 21, 3])).toEqual([0.1, -0.07]);
  expect(scores(read, [1, 5], [2, 0.5])).toEqual([0.45, -0.035]);
  expect([...read.weights.keys()]).toEqual(buckets);
  expect([...read.weights.get(1 << 20)!]).toEqual([0.3, 1.25]);
  expect([...rowOf(read, 1)!]).toEqual([0.2, 0]);
  expect(rowOf(read, 2)).toBeUndefined();
  expect(rowOf(read, 1 << 22)).toBeUndefined();
  // A weight that is not a whole hundredth, or beyond what 16 bits hold, is kept as it is.
  for (const odd of [0.123, 400]) {
    const other = sparseFromRows(1, [3, 4], Float64Array.from([odd, 0.5]));
    expect(scores(other, [3, 4])).toEqual([odd + 0.5]);
    expect([...rowOf(other, 3)!]).toEqual([odd]);
  }
});

test('tables of hundredths of every row width score every class of every feature once', () => {
  // 3 and 11 classes are the shipped polarity and detection widths, 4 and 16 fill those rows
  // (of 4 and 16 cells, each summed by its own loop); 5 is any other.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (const classes of [3, 4, 5, 11, 16]) {
    const buckets = Array.from({ length: 40 }, (_, i) => i * 3);
    const cells = Array.from({ length: buckets.length * classes }, () => (next() % 2001) - 1000);
    const read = sparseFromRows(
      classes,
      buckets,
      Float64Array.from(cells, (cell) => cell / 100),
    );
    const features = [0, 3, 9, 10, 117, 60, 1 << 20, 33];
    const expected = Array.from({ length: classes }, (_, c) =>
      features.reduce((sum, f) => {
        const i = buckets.indexOf(f);
        return i < 0 ? sum : sum + cells[i * classes + c]!;
      }, 0),
    ).map((sum) => sum / 100);
    expect(scores(read, features)).toEqual(expected);
    expect(scores(read, [])).toEqual(new Array(classes).fill(0));
  }
});

test('a model shared with another thread scores from the same table, in shared memory', () => {
  const read = sparseFromRows(2, [5, 1, 9], Float64Array.from([0.1, -0.07, 0.2, 0, 0, 0]));
  const shared = shareSparse(read);
  expect(shared.table.kind === 'hundredths' && shared.table.cells.buffer).toBeInstanceOf(
    SharedArrayBuffer,
  );
  // What a worker gets from postMessage: a clone whose cells are the same memory.
  const there = sparseFromShared(structuredClone(shared));
  for (const features of [[5], [1, 5], [9, 5, 1], [], [1 << 21]])
    expect(scores(there, features)).toEqual(scores(read, features));
  // Its weights as a Map (for training or saving): the rows that are not all zeros.
  expect([...there.weights.keys()].sort((a, b) => a - b)).toEqual([1, 5]);
  expect([...there.weights.get(5)!]).toEqual([0.1, -0.07]);
  expect([...there.weights.get(1)!]).toEqual([0.2, 0]);
  // A model whose weights are not whole hundredths is copied, and scores the same.
  const odd = sparseFromRows(1, [3, 4], Float64Array.from([0.123, 0.5]));
  const oddThere = sparseFromShared(structuredClone(shareSparse(odd)));
  expect(scores(oddThere, [3, 4])).toEqual(scores(odd, [3, 4]));
  expect([...oddThere.weights.keys()]).toEqual([3, 4]);
});

test('feature dropout spreads weight from a feature that always co-occurs with the label to one that sometimes does', () => {
  // Feature 1 is in every positive example, feature 2 in half of them; 3 marks the negatives.
  const examples = Array.from({ length: 80 }, (_, i) =>
    i % 2 === 0 ? { features: i % 4 === 0 ? [1, 2] : [1], label: 1 } : { features: [3], label: 0 },
  );
  const options = {
    classes: 1,
    epochs: 10,
    learningRate: 0.3,
    l2: 1e-4,
    seed: 3,
    multiLabel: true,
  };
  const share = (model: SparseModel) => rowOf(model, 2)![0]! / rowOf(model, 1)![0]!;
  const plain = train(examples, options);
  const dropped = train(examples, { ...options, dropout: 0.3 });
  // Without dropout, feature 1 alone explains every positive and feature 2 gets little of it;
  // dropping feature 1 from some steps makes feature 2 carry the label in those.
  expect(share(dropped)).toBeGreaterThan(share(plain) + 0.2);
  // Deterministic, and a dropout of 0 is no dropout.
  expect(scores(train(examples, { ...options, dropout: 0.3 }), [2])).toEqual(scores(dropped, [2]));
  expect(scores(train(examples, { ...options, dropout: 0 }), [1, 2])).toEqual(
    scores(plain, [1, 2]),
  );
});

test('averaging models averages each weight, and one model averages to itself', () => {
  const [one, two] = [trained(1), trained(2)];
  const mean = averageOf([one, two]);
  for (const bucket of [2, 7, 9, 40])
    expect([...mean.weights.get(bucket)!]).toEqual(
      [...one.weights.get(bucket)!].map((w, c) => w / 2 + two.weights.get(bucket)![c]! / 2),
    );
  // The seeds gave different models, so the mean is neither.
  expect(scores(mean, [7, 2])).not.toEqual(scores(one, [7, 2]));
  expect(scores(mean, [7, 2])).not.toEqual(scores(two, [7, 2]));
  expect(averageOf([one])).toBe(one);
  expect(() => averageOf([])).toThrow(/no models/);
});
