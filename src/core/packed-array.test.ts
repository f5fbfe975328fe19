import { expect, test } from 'vitest';
import { bitsFor, packArray, packedReader } from './packed-array.ts';

test('bitsFor is the width of the largest value', () => {
  expect([0, 1, 2, 3, 4, 255, 256, 40_000_000, 2 ** 32 - 1].map(bitsFor)).toEqual([
    1, 1, 2, 2, 3, 8, 9, 26, 32,
  ]);
});

test('every value reads back at every width, across word boundaries', () => {
  let state = 3;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  for (const max of [1, 5, 1000, 2 ** 20 + 7, 40_000_000, 2 ** 31 + 5, 2 ** 32 - 1]) {
    const values = Array.from({ length: 257 }, (_, k) => (k === 0 ? max : next() % (max + 1)));
    const packed = packArray(values, max);
    const at = packedReader(packed);
    expect(values.map((_, k) => at(k))).toEqual(values);
    expect(packed.words.length).toBeLessThanOrEqual(Math.ceil((257 * bitsFor(max)) / 32) + 1);
  }
});
