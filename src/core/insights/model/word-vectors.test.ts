import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { defaultWordVectors } from './default-model.ts';
import {
  DIMENSIONS,
  VECTOR_UNIT,
  meanVector,
  parseWordVectors,
  serializeWordVectors,
} from './word-vectors.ts';

const unit = (d: number) => Array.from({ length: DIMENSIONS }, (_, k) => (k === d ? 3 : 0));

test('vectors are stored at unit length as bytes and read back in the same order', () => {
  const { words, bytes } = serializeWordVectors([
    { word: 'roof', vector: unit(0) },
    { word: 'leak', vector: unit(1).map((v, k) => (k === 2 ? -3 : v)) },
  ]);
  expect(words).toBe('roof\nleak\n');
  const vectors = parseWordVectors(words, bytes);
  expect(vectors.index.get('leak')).toBe(1);
  expect(vectors.data[0]).toBe(VECTOR_UNIT);
  expect(vectors.data[DIMENSIONS + 1]).toBe(Math.round(VECTOR_UNIT / Math.SQRT2));
  expect(vectors.data[DIMENSIONS + 2]).toBe(-Math.round(VECTOR_UNIT / Math.SQRT2));
  // The mean of the words that have a vector, scaled; words without one are skipped.
  const mean = meanVector(vectors, ['roof', 'zzz', 'roof'], 0, 3, 2)!;
  expect(mean[0]).toBeCloseTo(2, 9);
  expect(meanVector(vectors, ['zzz'], 0, 1, 2)).toBeNull();
});

test('a vector file of the wrong size is refused, and other bytes give another digest', () => {
  const { words, bytes } = serializeWordVectors([{ word: 'roof', vector: unit(0) }]);
  expect(() => parseWordVectors(words, bytes.subarray(1))).toThrow(
    /1 words need 100 bytes, found 99; regenerate them with npm run vectors:aspects/,
  );
  const changed = Uint8Array.from(bytes);
  changed[5] = 1;
  expect(parseWordVectors(words, changed).digest).not.toBe(parseWordVectors(words, bytes).digest);
});

test('the shipped vectors hold 60,000 words, most frequent first', () => {
  const vectors = defaultWordVectors();
  expect(vectors.index.size).toBe(60_000);
  expect(vectors.index.get('the')).toBe(0);
  for (const word of ['roof', 'shingles', 'rude', 'gutter', 'warranty'])
    expect(vectors.index.has(word)).toBe(true);
  const words = readFileSync(path.join(import.meta.dirname, 'word-vectors.txt'), 'utf8');
  expect(
    words
      .split('\n')
      .filter(Boolean)
      .every((w) => /^[a-z][a-z0-9]*$/.test(w)),
  ).toBe(true);
});
