// Suffix array construction by induced sorting (SA-IS: Nong, Zhang and Chan, "Two Efficient
// Algorithms for Linear Time Suffix Array Construction", 2011), linear in the text's length. Meant
// for sorting the folded search text at build time; not wired into the search index yet.

/**
 * The suffix array of `text`: the start of every suffix, in lexicographic byte order (a suffix
 * that is a prefix of another sorts first).
 */
export function buildSuffixArray(text: Uint8Array): Int32Array {
  const n = text.length;
  const sa = new Int32Array(n + 1);
  if (n === 0) return new Int32Array(0);
  // Bytes shifted up by one, with a unique smallest sentinel (0) appended.
  const shifted = new Uint16Array(n + 1);
  for (let i = 0; i < n; i += 1) shifted[i] = text[i]! + 1;
  sais(shifted, sa, n + 1, 257);
  // sa[0] is the sentinel's suffix.
  return sa.subarray(1);
}

type Text = Uint16Array | Int32Array;

function buckets(s: Text, n: number, k: number, bucket: Int32Array, end: boolean): void {
  bucket.fill(0, 0, k);
  for (let i = 0; i < n; i += 1) bucket[s[i]!]! += 1;
  let sum = 0;
  for (let c = 0; c < k; c += 1) {
    sum += bucket[c]!;
    bucket[c] = end ? sum : sum - bucket[c]!;
  }
}

/** L-type suffixes from the sorted LMS ones (left to right), then S-type (right to left). */
function induce(
  s: Text,
  sa: Int32Array,
  types: Uint8Array,
  n: number,
  k: number,
  bucket: Int32Array,
): void {
  buckets(s, n, k, bucket, false);
  for (let i = 0; i < n; i += 1) {
    const j = sa[i]! - 1;
    if (j >= 0 && types[j] === 0) sa[bucket[s[j]!]!++] = j;
  }
  buckets(s, n, k, bucket, true);
  for (let i = n - 1; i >= 0; i -= 1) {
    const j = sa[i]! - 1;
    if (j >= 0 && types[j] === 1) sa[--bucket[s[j]!]!] = j;
  }
}

/**
 * `s[0..n)` with values in [0, k) and `s[n - 1]` the unique smallest value; writes its suffix array
 * into `sa[0..n)`.
 */
function sais(s: Text, sa: Int32Array, n: number, k: number): void {
  // types[i]: 1 when suffix i is S-type (smaller than suffix i + 1), 0 when L-type.
  const types = new Uint8Array(n);
  types[n - 1] = 1;
  for (let i = n - 2; i >= 0; i -= 1)
    types[i] = s[i]! < s[i + 1]! || (s[i] === s[i + 1] && types[i + 1] === 1) ? 1 : 0;
  const isLms = (i: number) => i > 0 && types[i] === 1 && types[i - 1] === 0;
  const bucket = new Int32Array(k);

  // Stage 1: sort the LMS substrings by induction.
  buckets(s, n, k, bucket, true);
  sa.fill(-1, 0, n);
  for (let i = 1; i < n; i += 1) if (isLms(i)) sa[--bucket[s[i]!]!] = i;
  induce(s, sa, types, n, k, bucket);

  let n1 = 0;
  for (let i = 0; i < n; i += 1) if (isLms(sa[i]!)) sa[n1++] = sa[i]!;

  // Name the sorted LMS substrings; equal substrings get equal names.
  sa.fill(-1, n1, n);
  let name = 0;
  let prev = -1;
  for (let i = 0; i < n1; i += 1) {
    const pos = sa[i]!;
    let diff = false;
    for (let d = 0; d < n; d += 1) {
      if (
        prev === -1 ||
        pos + d >= n ||
        prev + d >= n ||
        s[pos + d] !== s[prev + d] ||
        types[pos + d] !== types[prev + d]
      ) {
        diff = true;
        break;
      }
      if (d > 0 && (isLms(pos + d) || isLms(prev + d))) break;
    }
    if (diff) {
      name += 1;
      prev = pos;
    }
    sa[n1 + (pos >> 1)] = name - 1;
  }
  for (let i = n - 1, j = n - 1; i >= n1; i -= 1) if (sa[i]! >= 0) sa[j--] = sa[i]!;

  // Stage 2: sort the reduced string, recursively when names repeat.
  const s1 = sa.subarray(n - n1, n);
  // The recursion works in sa[0..n1) and reads s1 from sa's tail: n1 <= n / 2, so they are apart.
  if (name < n1) {
    sais(s1, sa, n1, name);
  } else {
    for (let i = 0; i < n1; i += 1) sa[s1[i]!] = i;
  }

  // Stage 3: induce the whole suffix array from the sorted LMS suffixes.
  buckets(s, n, k, bucket, true);
  // s1 is no longer needed: it holds the LMS positions in text order now.
  for (let i = 1, j = 0; i < n; i += 1) if (isLms(i)) s1[j++] = i;
  for (let i = 0; i < n1; i += 1) sa[i] = s1[sa[i]!]!;
  sa.fill(-1, n1, n);
  for (let i = n1 - 1; i >= 0; i -= 1) {
    const j = sa[i]!;
    sa[i] = -1;
    sa[--bucket[s[j]!]!] = j;
  }
  induce(s, sa, types, n, k, bucket);
}
