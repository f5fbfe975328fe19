// Seeded pseudo-random numbers for the benchmark's synthetic content: the same seed gives the same
// sequence on every machine and Node version (no Math.random, no platform-dependent floats).

/** cyrb128: four 32-bit hash words of a string, to seed sfc32 from a readable seed. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export interface Random {
  /** Uniform in [0, 1), from 32 bits. */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One item, with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** `count` distinct items in random order (all of them when count >= items.length). */
  sample<T>(items: readonly T[], count: number): T[];
  /** `length` lowercase hex digits, for opaque ids. */
  hex(length: number): string;
}

/** sfc32 (Small Fast Counting), seeded through cyrb128 of the seed string. */
export function createRandom(seed: string): Random {
  let [a, b, c, d] = cyrb128(seed);
  const next32 = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: sfc32 mixes its state over its first few rounds.
  for (let i = 0; i < 15; i += 1) next32();

  const random: Random = {
    next: () => next32() / 4294967296,
    int: (min, max) => min + Math.floor(random.next() * (max - min + 1)),
    chance: (probability) => random.next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(random.next() * items.length)]!;
    },
    weighted: (items) => {
      let total = 0;
      for (const [, weight] of items) total += weight;
      let at = random.next() * total;
      for (const [item, weight] of items) {
        at -= weight;
        if (at < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    sample: (items, count) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random.next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, Math.min(count, copy.length));
    },
    hex: (length) => {
      let out = '';
      while (out.length < length) out += next32().toString(16).padStart(8, '0');
      return out.slice(0, length);
    },
  };
  return random;
}
