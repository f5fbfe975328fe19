import { describe, expect, it } from 'vitest';
import { buildSuffixArray } from './suffix-array.ts';

function naive(text: Uint8Array): number[] {
  const starts = Array.from({ length: text.length }, (_, i) => i);
  return starts.sort((a, b) => Buffer.compare(text.subarray(a), text.subarray(b)));
}

describe('buildSuffixArray', () => {
  it('matches a naive sort of every suffix on random texts', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 300; round += 1) {
      const alphabet = 1 + (next() % 5);
      const text = Uint8Array.from({ length: next() % 60 }, () => 97 + (next() % alphabet));
      expect(Array.from(buildSuffixArray(text))).toEqual(naive(text));
    }
  });

  it('handles the empty text and full byte range', () => {
    expect(Array.from(buildSuffixArray(new Uint8Array(0)))).toEqual([]);
    const text = Uint8Array.from([255, 0, 255, 0, 128]);
    expect(Array.from(buildSuffixArray(text))).toEqual(naive(text));
  });
});
