// Sets of review numbers as bitsets (one bit per review, 32 to a word): the search index keeps its
// filters in this form so that any mix of them intersects in one pass over n / 32 words, and counts
// its matches without listing them.

export type Bitset = Uint32Array;

export function wordsFor(size: number): number {
  return (size + 31) >>> 5;
}

export function emptyBitset(size: number): Bitset {
  return new Uint32Array(wordsFor(size));
}

export function bitsetOf(size: number, members: ArrayLike<number>): Bitset {
  const set = emptyBitset(size);
  for (let k = 0; k < members.length; k += 1) {
    const member = members[k]!;
    set[member >>> 5]! |= 1 << (member & 31);
  }
  return set;
}

export function hasMember(set: Bitset, member: number): boolean {
  return (set[member >>> 5]! & (1 << (member & 31))) !== 0;
}

export function addMember(set: Bitset, member: number): void {
  set[member >>> 5]! |= 1 << (member & 31);
}

export function unionInto(target: Bitset, source: Bitset): void {
  for (let w = 0; w < target.length; w += 1) target[w]! |= source[w]!;
}

export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/**
 * The members of every set in `sets` that lie in [start, end): how many there are, and the first
 * `limit` of them in ascending order. With no sets, every number in the range is a member.
 */
export function intersectRange(
  sets: readonly Bitset[],
  start: number,
  end: number,
  limit: number,
): { total: number; first: number[] } {
  const first: number[] = [];
  if (end <= start) return { total: 0, first };
  if (sets.length === 0) {
    for (let member = start; member < Math.min(end, start + limit); member += 1) first.push(member);
    return { total: end - start, first };
  }
  const lastWord = (end - 1) >>> 5;
  let total = 0;
  for (let w = start >>> 5; w <= lastWord; w += 1) {
    let word = sets[0]![w]!;
    for (let s = 1; s < sets.length && word !== 0; s += 1) word &= sets[s]![w]!;
    if (word === 0) continue;
    if (w === start >>> 5) word &= -1 << (start & 31);
    if (w === lastWord && (end & 31) !== 0) word &= (1 << (end & 31)) - 1;
    if (word === 0) continue;
    total += popcount(word);
    while (word !== 0 && first.length < limit) {
      const lowest = word & -word;
      first.push((w << 5) + 31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
  return { total, first };
}
