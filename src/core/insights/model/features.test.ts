import { expect, test } from 'vitest';
import { distinctBuckets, featuresOf, hashFeature, tokenizeForModel } from './features.ts';

test('distinct buckets keep the order of first appearance, and each list starts afresh', () => {
  expect(distinctBuckets([5, 3, 5], [1, 3, 9])).toEqual([5, 3, 1, 9]);
  expect(distinctBuckets([3, 5])).toEqual([3, 5]);
  expect(distinctBuckets()).toEqual([]);
  const tokens = tokenizeForModel('The crew was the best crew, the best by far.');
  const features = featuresOf(tokens);
  expect(new Set(features).size).toBe(features.length);
  // The same words give the same buckets in the same order, whatever ran in between.
  distinctBuckets(features);
  expect(featuresOf(tokens)).toEqual(features);
  expect(featuresOf(tokens, 0, 3)).toEqual(featuresOf(tokenizeForModel('The crew was')));
});

test('features come in the order they first appear, each the hash of its prefixed name', () => {
  // The order is the order the model's scores are summed in, so it must not change.
  const tokens = tokenizeForModel('ok ok');
  expect(featuresOf(tokens)).toEqual(['<bias>', 'w:ok', 'b:ok ok'].map(hashFeature));
  expect(featuresOf(tokens, 0, 2, 'k:')).toEqual(
    ['k:<bias>', 'k:w:ok', 'k:b:ok ok'].map(hashFeature),
  );
});

test('lists stay distinct and complete however many were built before (the stamps start again)', () => {
  const tokens = tokenizeForModel('The crew was the best crew, the best by far.');
  const features = featuresOf(tokens);
  // A list's stamp comes back every 254 lists: a bucket taken 254 lists ago is still free.
  for (let round = 0; round < 800; round++) {
    const bucket = 1000 + (round % 254);
    expect(distinctBuckets([bucket, 7, bucket], [7, 9])).toEqual([bucket, 7, 9]);
  }
  expect(featuresOf(tokens)).toEqual(features);
});
