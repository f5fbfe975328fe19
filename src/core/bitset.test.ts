import { expect, test } from 'vitest';
import { bitsetOf, intersectRange, popcount } from './bitset.ts';

test('popcount counts the set bits of a 32-bit word', () => {
  expect([0, 1, 0xff, 0x80000000, 0xffffffff, 0x55555555].map(popcount)).toEqual([
    0, 1, 8, 1, 32, 16,
  ]);
});

test('intersectRange counts and lists the members common to every set within the range', () => {
  const size = 200;
  let state = 5;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let round = 0; round < 200; round += 1) {
    const lists = Array.from({ length: Math.floor(next() * 4) }, () =>
      Array.from({ length: size }, (_, k) => k).filter(() => next() < 0.6),
    );
    const start = Math.floor(next() * size);
    const end = start + Math.floor(next() * (size - start + 1));
    const limit = 1 + Math.floor(next() * 50);
    const expected = Array.from({ length: end - start }, (_, k) => start + k).filter((k) =>
      lists.every((list) => list.includes(k)),
    );
    const result = intersectRange(
      lists.map((list) => bitsetOf(size, list)),
      start,
      end,
      limit,
    );
    expect(result).toEqual({ total: expected.length, first: expected.slice(0, limit) });
  }
});
