import { expect, test } from 'vitest';
import { rowOf, scores, sparseFromRows, train, type SparseModel } from './logistic.ts';

const trained = (): SparseModel =>
  train(
    [
      { features: [7, 2], label: 0 },
      { features: [7, 40], label: 1 },
      { features: [2, 40, 9], label: 2 },
    ],
    { classes: 3, epochs: 3, learningRate: 0.3, l2: 0, seed: 1 },
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
