import { expect, test } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

test('allows up to the limit per key within a window, then refuses with the seconds left', () => {
  const limiter = new RateLimiter(2, 60_000);
  expect(limiter.take('a', 1_000).allowed).toBe(true);
  expect(limiter.take('a', 2_000).allowed).toBe(true);
  const third = limiter.take('a', 31_000);
  expect(third.allowed).toBe(false);
  expect(third.retryAfterSeconds).toBe(30);
  expect(limiter.take('b', 31_000).allowed).toBe(true);
});

test('a new window allows again', () => {
  const limiter = new RateLimiter(1, 60_000);
  expect(limiter.take('a', 0).allowed).toBe(true);
  expect(limiter.take('a', 59_999).allowed).toBe(false);
  expect(limiter.take('a', 60_000).allowed).toBe(true);
});
