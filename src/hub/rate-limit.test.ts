import { expect, test } from 'vitest';
import { clientKey, RateLimiter } from './rate-limit.ts';

test('allows up to the limit per key within a window, then refuses with the seconds left', () => {
  const limiter = new RateLimiter(2, 60_000);
  expect(limiter.take('a', 1_000).allowed).toBe(true);
  expect(limiter.take('a', 2_000).allowed).toBe(true);
  const third = limiter.take('a', 31_000);
  expect(third.allowed).toBe(false);
  expect(third.retryAfterSeconds).toBe(30);
  expect(limiter.take('b', 31_000).allowed).toBe(true);
});

test('room opens as the oldest request leaves the window', () => {
  const limiter = new RateLimiter(1, 60_000);
  expect(limiter.take('a', 0).allowed).toBe(true);
  expect(limiter.take('a', 59_999).allowed).toBe(false);
  expect(limiter.take('a', 60_000).allowed).toBe(true);
});

test('the window slides: a burst at the edge of a minute cannot double the limit', () => {
  const limiter = new RateLimiter(10, 60_000);
  // 10 requests in the last second of one minute...
  for (let i = 0; i < 10; i += 1) expect(limiter.take('a', 59_000 + i * 10).allowed).toBe(true);
  // ...leave no room in the first seconds of the next, as a fixed window would.
  let admitted = 0;
  for (let i = 0; i < 10; i += 1) if (limiter.take('a', 60_500 + i * 10).allowed) admitted += 1;
  expect(admitted).toBe(0);
  // Over any 60 s span at most 10 are admitted.
  const times: number[] = [];
  for (let t = 0; t < 600_000; t += 997) if (limiter.take('b', t).allowed) times.push(t);
  for (const start of times) {
    expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(10);
  }
});

test('refused requests are not counted, and a request can cost several units', () => {
  const limiter = new RateLimiter(5, 1_000);
  expect(limiter.take('a', 0, 4).allowed).toBe(true);
  const refused = limiter.take('a', 10, 3);
  expect(refused.allowed).toBe(false);
  expect(refused.retryAfterSeconds).toBe(1);
  expect(limiter.take('a', 20, 1).allowed).toBe(true);
  expect(limiter.take('a', 1_000, 4).allowed).toBe(true);
});

test('idle keys are forgotten, so the map stays bounded', () => {
  const limiter = new RateLimiter(3, 1_000);
  for (let i = 0; i < 500; i += 1) limiter.take(`k${i}`, 0);
  expect(limiter.size).toBe(500);
  limiter.take('late', 5_000);
  expect(limiter.size).toBe(1);
});

test('a client is limited by its IPv4 address, however written, or by its IPv6 /64', () => {
  expect(clientKey('9.9.9.9')).toBe('9.9.9.9');
  expect(clientKey('::ffff:9.9.9.9')).toBe('9.9.9.9');
  expect(clientKey('::FFFF:9.9.9.9')).toBe('9.9.9.9');
  expect(clientKey('::ffff:909:909')).toBe('9.9.9.9');
  // One host is given a whole /64: every address in it is the same client.
  expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  expect(clientKey('2001:0DB8:1:2::9')).toBe('2001:db8:1:2::/64');
  expect(clientKey('2001:db8:1:3::9')).toBe('2001:db8:1:3::/64');
  expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  expect(clientKey('unknown')).toBe('unknown');
  const limiter = new RateLimiter(3, 60_000);
  const answers = Array.from(
    { length: 5 },
    (_, i) => limiter.take(clientKey(`2001:db8:1:2::${i + 1}`), i).allowed,
  );
  expect(answers).toEqual([true, true, true, false, false]);
});
