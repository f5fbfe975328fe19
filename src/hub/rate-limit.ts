// Sliding-window request counting per key (client address, callback URL), in memory, per
// instance. Each key keeps the times of its last `limit` accepted requests, so no window of
// `windowMs` ever admits more than `limit` (a fixed window lets twice the limit through at its
// edge). Refused requests are not recorded.
import { isIPv6 } from 'node:net';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until one more request would be accepted (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * The key a client address is limited under: an IPv4 address as it is (an IPv4-mapped IPv6 one,
 * ::ffff:a.b.c.d, as a.b.c.d), an IPv6 address by its /64 network. One host is given a whole /64,
 * so keyed by the full address one client could take a fresh limit with every request.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (!isIPv6(bare)) return address;
  let text = bare;
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) as its two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = [
    ...left,
    ...Array<string>(8 - left.length - right.length).fill('0'),
    ...right,
  ].map((group) => Number.parseInt(group, 16));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Keys kept at most; beyond it idle keys are dropped first, then the oldest ones. */
const MAX_KEYS = 100_000;

interface KeyLog {
  /** Ring buffer of accepted request times. */
  times: Float64Array;
  start: number;
  size: number;
  last: number;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #keys = new Map<string, KeyLog>();
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor(limit: number, windowMs = 60_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Records one request for `key` at `now` when the window has room. */
  take(key: string, now: number, cost = 1): RateDecision {
    this.#sweep(now);
    let log = this.#keys.get(key);
    if (!log) {
      log = { times: new Float64Array(this.#limit), start: 0, size: 0, last: now };
      this.#keys.set(key, log);
    }
    // Forget requests that left the window.
    while (log.size > 0 && log.times[log.start]! <= now - this.#windowMs) {
      log.start = (log.start + 1) % this.#limit;
      log.size -= 1;
    }
    if (cost > this.#limit - log.size) {
      // Room opens when enough of the oldest requests leave the window.
      const needed = Math.min(cost, this.#limit) - (this.#limit - log.size);
      const freeing = log.times[(log.start + Math.max(0, needed - 1)) % this.#limit]!;
      const retryAfterSeconds = Math.max(1, Math.ceil((freeing + this.#windowMs - now) / 1000));
      return { allowed: false, retryAfterSeconds };
    }
    for (let i = 0; i < cost; i += 1) {
      log.times[(log.start + log.size) % this.#limit] = now;
      log.size += 1;
    }
    log.last = now;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Keys currently tracked (for tests and metrics). */
  get size(): number {
    return this.#keys.size;
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < this.#windowMs && this.#keys.size < MAX_KEYS) return;
    this.#lastSweep = now;
    for (const [key, log] of this.#keys) {
      if (log.last <= now - this.#windowMs) this.#keys.delete(key);
    }
    // Still full (a flood of distinct keys inside one window): drop the oldest keys.
    for (const key of this.#keys.keys()) {
      if (this.#keys.size < MAX_KEYS) break;
      this.#keys.delete(key);
    }
  }
}
