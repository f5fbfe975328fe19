// Which reviews contain a byte string, exactly and at a bounded cost. The folded text of every review
// (reviews end with SEPARATOR, a byte UTF-8 never uses, so no needle spans two reviews) is sorted
// into a suffix array at build time: the suffixes starting with a needle are one range of it, found
// by binary search. A range of at most FREQUENT_MIN_SUFFIXES suffixes is mapped to its reviews on
// the spot; every larger range (a common word, a single letter) had its set of reviews computed at
// build time, so no needle ever costs more than a binary search plus FREQUENT_MIN_SUFFIXES steps.
// A range of more suffixes is always a branching node of the suffix tree, so there are at most
// 2 × text length / FREQUENT_MIN_SUFFIXES such sets.
import { addMember, emptyBitset, unionInto, wordsFor, type Bitset } from './bitset.ts';
import { packArray, packedReader, type PackedArray } from './packed-array.ts';
import { buildSuffixArray } from './suffix-array.ts';

/** Ends every review's folded text: 0xFF never occurs in UTF-8. */
export const SEPARATOR = 0xff;
export const FREQUENT_MIN_SUFFIXES = 32_768;
/** Positions per entry of the position → review table. */
const BLOCK_BITS = 6;

export interface FrequentSets {
  /** Suffix-array ranges [starts[k], ends[k]) in ascending order of start, then end. */
  starts: Uint32Array;
  ends: Uint32Array;
  /** One bitset of `words` words per range, in the same order. */
  sets: Uint32Array;
  words: number;
}

export interface SubstringData {
  /** The suffix array, packed at the width the text's length needs. */
  suffixArray: PackedArray;
  frequent: FrequentSets;
}

/** Review number of every position, given each review's first position (n + 1 offsets). */
function reviewLocator(offsets: Uint32Array): (position: number) => number {
  const total = offsets[offsets.length - 1] ?? 0;
  const table = new Uint32Array((total >>> BLOCK_BITS) + 1);
  let review = 0;
  for (let block = 0; block < table.length; block += 1) {
    const position = block << BLOCK_BITS;
    while (review + 1 < offsets.length - 1 && offsets[review + 1]! <= position) review += 1;
    table[block] = review;
  }
  return (position) => {
    let found = table[position >>> BLOCK_BITS]!;
    while (offsets[found + 1]! <= position) found += 1;
    return found;
  };
}

/** Sorts the text's suffixes and computes the review sets of every frequent range. */
export function buildSubstringData(
  text: Uint8Array,
  offsets: Uint32Array,
  minSuffixes = FREQUENT_MIN_SUFFIXES,
): SubstringData {
  const suffixArray = buildSuffixArray(text);
  return {
    suffixArray: packArray(suffixArray, text.length),
    frequent: frequentSets(text, suffixArray, offsets, minSuffixes),
  };
}

interface Node {
  lo: number;
  hi: number;
  depth: number;
  set?: Bitset;
  /** Child ranges still to visit, and the covered part of [lo, hi). */
  children?: [number, number, number][];
}

function frequentSets(
  text: Uint8Array,
  suffixArray: Int32Array,
  offsets: Uint32Array,
  minSuffixes: number,
): FrequentSets {
  const reviews = offsets.length - 1;
  const words = wordsFor(reviews);
  const n = text.length;
  if (n === 0)
    return {
      starts: new Uint32Array(0),
      ends: new Uint32Array(0),
      sets: new Uint32Array(0),
      words,
    };
  const reviewAt = reviewLocator(offsets);
  const byteAt = (suffix: number, depth: number) =>
    suffix + depth < n ? text[suffix + depth]! : -1;
  const found: { lo: number; hi: number; set: Bitset }[] = [];

  /** Adds the reviews of the suffixes in [lo, hi) to `set`. */
  const scan = (set: Bitset, lo: number, hi: number) => {
    for (let k = lo; k < hi; k += 1) addMember(set, reviewAt(suffixArray[k]!));
  };

  /** The children of the node [lo, hi) at `depth`: runs of equal next byte, in order. */
  const childrenOf = (lo: number, hi: number, depth: number): [number, number, number][] => {
    const children: [number, number, number][] = [];
    let i = lo;
    while (i < hi) {
      const c = byteAt(suffixArray[i]!, depth);
      let a = i + 1;
      let b = hi;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (byteAt(suffixArray[mid]!, depth) === c) a = mid + 1;
        else b = mid;
      }
      children.push([i, a, c]);
      i = a;
    }
    return children;
  };

  /** The node's depth: how far its first and last suffixes agree (never through a separator). */
  const extend = (lo: number, hi: number, depth: number): number => {
    const first = suffixArray[lo]!;
    const last = suffixArray[hi - 1]!;
    let d = depth;
    while (first + d < n && last + d < n) {
      const c = text[first + d]!;
      if (c !== text[last + d] || c === SEPARATOR) break;
      d += 1;
    }
    return d;
  };

  // Depth-first, children before parents, so each parent's set is the union of its frequent
  // children's sets plus a scan of its other suffixes: every suffix is scanned once.
  const stack: Node[] = [{ lo: 0, hi: n, depth: 0 }];
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!;
    if (!node.children) {
      node.depth = extend(node.lo, node.hi, node.depth);
      node.set = emptyBitset(reviews);
      node.children = childrenOf(node.lo, node.hi, node.depth);
    }
    const next = node.children.pop();
    if (next) {
      const [lo, hi, c] = next;
      if (c !== SEPARATOR && c !== -1 && hi - lo > minSuffixes) {
        stack.push({ lo, hi, depth: node.depth + 1 });
      } else {
        scan(node.set!, lo, hi);
      }
      continue;
    }
    stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) unionInto(parent.set!, node.set!);
    // The root stands for the empty needle, which every review contains: it is never looked up.
    if (node.depth > 0) found.push({ lo: node.lo, hi: node.hi, set: node.set! });
  }
  found.sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  const sets = new Uint32Array(found.length * words);
  found.forEach((entry, k) => sets.set(entry.set, k * words));
  return {
    starts: Uint32Array.from(found, (entry) => entry.lo),
    ends: Uint32Array.from(found, (entry) => entry.hi),
    sets,
    words,
  };
}

export interface SubstringIndex {
  /** The reviews whose text contains `needle`, as a bitset over review numbers. */
  reviewsContaining(needle: Uint8Array): Bitset;
  /** How often `needle` occurs, and how many occurrences a lookup maps to reviews one by one. */
  cost(needle: Uint8Array): { occurrences: number; scanned: number };
}

export function openSubstringIndex(
  text: Uint8Array,
  offsets: Uint32Array,
  { suffixArray: packed, frequent }: SubstringData,
): SubstringIndex {
  const suffixAt = packedReader(packed);
  const reviews = offsets.length - 1;
  const reviewAt = reviewLocator(offsets);
  const n = text.length;

  /** Compares the suffix at `suffix` with `needle` over the needle's length: <0, 0 or >0. */
  const compare = (suffix: number, needle: Uint8Array): number => {
    for (let k = 0; k < needle.length; k += 1) {
      if (suffix + k >= n) return -1;
      const difference = text[suffix + k]! - needle[k]!;
      if (difference !== 0) return difference;
    }
    return 0;
  };

  const range = (needle: Uint8Array): [number, number] => {
    let lo = 0;
    let hi = packed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(suffixAt(mid), needle) < 0) lo = mid + 1;
      else hi = mid;
    }
    const start = lo;
    hi = packed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(suffixAt(mid), needle) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return [start, lo];
  };

  const frequentSet = (lo: number, hi: number): Bitset | undefined => {
    let a = 0;
    let b = frequent.starts.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const start = frequent.starts[mid]!;
      if (start < lo || (start === lo && frequent.ends[mid]! < hi)) a = mid + 1;
      else b = mid;
    }
    if (a < frequent.starts.length && frequent.starts[a] === lo && frequent.ends[a] === hi)
      return frequent.sets.subarray(a * frequent.words, (a + 1) * frequent.words);
    return undefined;
  };

  return {
    reviewsContaining(needle) {
      if (needle.length === 0) {
        const all = emptyBitset(reviews);
        for (let review = 0; review < reviews; review += 1) addMember(all, review);
        return all;
      }
      // Only a review's own bytes count, never the separator after it.
      if (needle.includes(SEPARATOR)) return emptyBitset(reviews);
      const [lo, hi] = range(needle);
      const known = hi - lo > 1 ? frequentSet(lo, hi) : undefined;
      if (known) return known;
      const set = emptyBitset(reviews);
      for (let k = lo; k < hi; k += 1) addMember(set, reviewAt(suffixAt(k)));
      return set;
    },
    cost(needle) {
      if (needle.length === 0) return { occurrences: n, scanned: 0 };
      const [lo, hi] = range(needle);
      const known = hi - lo > 1 ? frequentSet(lo, hi) : undefined;
      return { occurrences: hi - lo, scanned: known ? 0 : hi - lo };
    },
  };
}

/** The substring data as bytes for the build's output, and back (little-endian words). */
export function encodeSubstringData({ suffixArray, frequent }: SubstringData): {
  suffixArray: Buffer;
  frequent: Buffer;
} {
  const count = frequent.starts.length;
  const head = new Uint32Array([count, frequent.words]);
  const words = suffixArray.words;
  return {
    suffixArray: Buffer.concat([
      Buffer.from(new Uint32Array([suffixArray.length, suffixArray.width]).buffer),
      Buffer.from(words.buffer, words.byteOffset, words.byteLength),
    ]),
    frequent: Buffer.concat([
      Buffer.from(head.buffer),
      Buffer.from(frequent.starts.buffer, frequent.starts.byteOffset, frequent.starts.byteLength),
      Buffer.from(frequent.ends.buffer, frequent.ends.byteOffset, frequent.ends.byteLength),
      Buffer.from(frequent.sets.buffer, frequent.sets.byteOffset, frequent.sets.byteLength),
    ]),
  };
}

/** Word view of bytes read from a file, copied only when they are not 4-byte aligned. */
function wordsOf(bytes: Uint8Array, from: number, length: number): Uint32Array {
  const offset = bytes.byteOffset + from;
  if (offset % 4 === 0) return new Uint32Array(bytes.buffer, offset, length);
  return new Uint32Array(Uint8Array.from(bytes.subarray(from, from + length * 4)).buffer);
}

export function decodeSubstringData(suffixArray: Uint8Array, frequent: Uint8Array): SubstringData {
  const [count, words] = wordsOf(frequent, 0, 2);
  const starts = wordsOf(frequent, 8, count!);
  const ends = wordsOf(frequent, 8 + count! * 4, count!);
  const sets = wordsOf(frequent, 8 + count! * 8, count! * words!);
  const [length, width] = wordsOf(suffixArray, 0, 2);
  return {
    suffixArray: {
      length: length!,
      width: width!,
      words: wordsOf(suffixArray, 8, (suffixArray.byteLength - 8) >>> 2),
    },
    frequent: { starts, ends, sets, words: words! },
  };
}
