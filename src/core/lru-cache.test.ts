import { expect, test } from 'vitest';
import { LruCache } from './lru-cache.ts';

const item = (size: number) => ({ size });

test('evicts the least recently used entry beyond the entry limit', () => {
  const cache = new LruCache<{ size: number }>(2, 100);
  cache.set('a', item(1));
  cache.set('b', item(1));
  cache.get('a');
  cache.set('c', item(1));
  expect(cache.get('a')).toBeDefined();
  expect(cache.get('b')).toBeUndefined();
  expect(cache.get('c')).toBeDefined();
});

test('evicts oldest entries until the total size fits, and never stores one larger than the bound', () => {
  const cache = new LruCache<{ size: number }>(10, 10);
  cache.set('a', item(4));
  cache.set('b', item(4));
  cache.set('c', item(4));
  expect(cache.get('a')).toBeUndefined();
  expect(cache.size).toBe(2);
  cache.set('huge', item(11));
  expect(cache.get('huge')).toBeUndefined();
  expect(cache.size).toBe(2);
});

test('replacing a key updates its size', () => {
  const cache = new LruCache<{ size: number }>(10, 10);
  cache.set('a', item(8));
  cache.set('a', item(2));
  cache.set('b', item(8));
  expect(cache.get('a')).toEqual(item(2));
  expect(cache.get('b')).toEqual(item(8));
});
