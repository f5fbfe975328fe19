import { describe, expect, it } from 'vitest';
import { hasMember } from './bitset.ts';
import {
  SEPARATOR,
  buildSubstringData,
  decodeSubstringData,
  encodeSubstringData,
  openSubstringIndex,
} from './substring-index.ts';

function corpus(texts: readonly string[]): { text: Buffer; offsets: Uint32Array } {
  const parts: Buffer[] = [];
  const offsets = [0];
  for (const value of texts) {
    const bytes = Buffer.from(value, 'utf8');
    parts.push(bytes, Buffer.from([SEPARATOR]));
    offsets.push(offsets.at(-1)! + bytes.length + 1);
  }
  return { text: Buffer.concat(parts), offsets: Uint32Array.from(offsets) };
}

function members(set: Uint32Array, size: number): number[] {
  return Array.from({ length: size }, (_, k) => k).filter((k) => hasMember(set, k));
}

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

describe('openSubstringIndex', () => {
  it('finds exactly the reviews containing a needle, whatever the frequent-set threshold', () => {
    const next = random(11);
    for (let round = 0; round < 60; round += 1) {
      const alphabet = ['a', 'b', 'c', ' ', 'é', '\n'].slice(0, 2 + Math.floor(next() * 5));
      const texts = Array.from({ length: 1 + Math.floor(next() * 40) }, () =>
        Array.from(
          { length: Math.floor(next() * 30) },
          () => alphabet[Math.floor(next() * alphabet.length)],
        ).join(''),
      );
      const { text, offsets } = corpus(texts);
      for (const threshold of [1, 3, 17, 1000]) {
        const index = openSubstringIndex(
          text,
          offsets,
          buildSubstringData(text, offsets, threshold),
        );
        for (let probe = 0; probe < 25; probe += 1) {
          const source = texts[Math.floor(next() * texts.length)]!;
          const from = Math.floor(next() * source.length);
          const needle =
            probe % 5 === 0
              ? alphabet[Math.floor(next() * alphabet.length)]!.repeat(1 + Math.floor(next() * 3))
              : source.slice(from, from + 1 + Math.floor(next() * 6));
          if (needle === '') continue;
          const expected = texts.flatMap((value, k) => (value.includes(needle) ? [k] : []));
          const bytes = Buffer.from(needle, 'utf8');
          expect(members(index.reviewsContaining(bytes), texts.length), needle).toEqual(expected);
          // The bound: a lookup never maps more than `threshold` occurrences one by one.
          expect(index.cost(bytes).scanned).toBeLessThanOrEqual(threshold);
        }
      }
    }
  });

  it('never matches across two reviews', () => {
    const { text, offsets } = corpus(['roof', 'leak', 'roofleak']);
    const index = openSubstringIndex(text, offsets, buildSubstringData(text, offsets, 1));
    expect(members(index.reviewsContaining(Buffer.from('fleak')), 3)).toEqual([2]);
    expect(members(index.reviewsContaining(Buffer.from([0x66, SEPARATOR])), 3)).toEqual([]);
  });

  it('keeps at most 2 × text length / threshold frequent sets', () => {
    const texts = Array.from({ length: 300 }, (_, k) => `the roof over bay ${k % 7} held up`);
    const { text, offsets } = corpus(texts);
    const threshold = 200;
    const data = buildSubstringData(text, offsets, threshold);
    expect(data.frequent.starts.length).toBeGreaterThan(0);
    expect(data.frequent.starts.length).toBeLessThanOrEqual((2 * text.length) / threshold);
    const index = openSubstringIndex(text, offsets, data);
    expect(index.cost(Buffer.from('the roof'))).toEqual({ occurrences: 300, scanned: 0 });
    expect(members(index.reviewsContaining(Buffer.from('bay 3')), 300)).toHaveLength(43);
  });

  it('reads back what it wrote, from unaligned bytes too', () => {
    const { text, offsets } = corpus(['shingles', 'gutters', 'shingle repair', 'gutter guard']);
    const data = buildSubstringData(text, offsets, 2);
    const encoded = encodeSubstringData(data);
    const shifted = (bytes: Buffer) => Buffer.concat([Buffer.from([0]), bytes]).subarray(1);
    const decoded = decodeSubstringData(shifted(encoded.suffixArray), shifted(encoded.frequent));
    expect(decoded.suffixArray.length).toBe(data.suffixArray.length);
    expect(Array.from(decoded.suffixArray.words)).toEqual(Array.from(data.suffixArray.words));
    expect(Array.from(decoded.frequent.sets)).toEqual(Array.from(data.frequent.sets));
    const index = openSubstringIndex(text, offsets, decoded);
    expect(members(index.reviewsContaining(Buffer.from('gutter')), 4)).toEqual([1, 3]);
  });

  it('handles a site with no reviews', () => {
    const { text, offsets } = corpus([]);
    const index = openSubstringIndex(text, offsets, buildSubstringData(text, offsets));
    expect(index.reviewsContaining(Buffer.from('roof'))).toHaveLength(0);
  });
});
