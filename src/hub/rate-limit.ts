// Fixed-window request counting per key (client IP, callback URL), in memory, per instance.
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  #windowStart = Number.NEGATIVE_INFINITY;
  #counts = new Map<string, number>();

  constructor(limit: number, windowMs = 60_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  take(key: string, now: number): RateDecision {
    if (now - this.#windowStart >= this.#windowMs) {
      // A new window forgets every key, which also bounds the map's size.
      this.#windowStart = now;
      this.#counts = new Map();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((this.#windowStart + this.#windowMs - now) / 1000),
    );
    return { allowed: count <= this.#limit, retryAfterSeconds };
  }
}
