// Features of a review sentence for the learned aspect model: folded words, word bigrams, word
// pairs one and two words apart, character 3- and 4-grams inside words (robust to typos and
// text-speak), words marked as negated (after not/no/never/n't … up to the clause's end) and words
// after a contrast (but/though/however …), all hashed into a fixed number of buckets. Pure and
// allocation-light: the build runs it on every sentence of every review.
import { stripMarks } from '../../text.ts';

export const FEATURE_BITS = 20;
const MASK = (1 << FEATURE_BITS) - 1;

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nobody',
  'nothing',
  'none',
  'nowhere',
  'without',
  'zero',
  'neither',
  'nor',
  'cannot',
  'cant',
  'dont',
  'didnt',
  'doesnt',
  'wasnt',
  'werent',
  'isnt',
  'arent',
  'wont',
  'wouldnt',
  'couldnt',
  'shouldnt',
  'hasnt',
  'havent',
  'hadnt',
  'aint',
]);
const CONTRASTS = new Set([
  'but',
  'though',
  'although',
  'however',
  'except',
  'yet',
  'unfortunately',
  'otherwise',
]);
const CLAUSE_END = /[.,;:!?()]/;

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a, 32-bit, continued from `hash` over `text[from, to)`. */
function fnv(hash: number, text: string, from = 0, to = text.length): number {
  let h = hash;
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** FNV-1a, 32-bit, of a string: the bucket of a feature. */
export function hashFeature(feature: string): number {
  return (fnv(FNV_OFFSET, feature) >>> 0) & MASK;
}

export interface SentenceTokens {
  words: string[];
  /** Index of the clause each word is in (clauses end at punctuation and contrast words). */
  clauses: number[];
  negated: boolean[];
  afterContrast: boolean[];
}

/** Folded words with clause, negation and contrast marks. */
export function tokenizeForModel(text: string): SentenceTokens {
  // Marks stripped, as the shipped model was trained: folding more (ß to ss, say) is a retrain.
  const folded = stripMarks(text).replace(/[’`]/g, "'").replace(/n't\b/g, 'nt').replace(/'/g, '');
  const words: string[] = [];
  const clauses: number[] = [];
  const negated: boolean[] = [];
  const afterContrast: boolean[] = [];
  let clause = 0;
  let negation = false;
  let contrast = false;
  for (const match of folded.matchAll(/[\p{L}\p{N}$%]+|[.,;:!?()]/gu)) {
    const token = match[0];
    if (CLAUSE_END.test(token)) {
      if (words.length > 0 && clauses.at(-1) === clause) clause += 1;
      negation = false;
      continue;
    }
    if (CONTRASTS.has(token)) {
      if (words.length > 0 && clauses.at(-1) === clause) clause += 1;
      contrast = true;
      negation = false;
    }
    words.push(token);
    clauses.push(clause);
    negated.push(negation);
    afterContrast.push(contrast);
    if (NEGATORS.has(token)) negation = true;
  }
  return { words, clauses, negated, afterContrast };
}

/**
 * Per hashed feature bucket, the stamp of the last list of distinct buckets that took it: a Set's
 * work without building one (shared by every list; a list is built in one go, never two at once).
 * A byte each, so that the table (1 MB) stays in the processor's cache: with 4-byte stamps it did
 * not, and building the lists took twice as long. The stamps start again, the table cleared,
 * every 254 lists.
 */
const taken = new Uint8Array(1 << FEATURE_BITS);
let stamp = 0;

function nextStamp(): number {
  if (++stamp === 0xff) {
    taken.fill(0);
    stamp = 1;
  }
  return stamp;
}

/**
 * The buckets of `lists` in order of first appearance, each once (as a Set would keep them). Every
 * bucket must be a hashed feature (below 2^FEATURE_BITS, as `featuresOf` gives).
 */
export function distinctBuckets(...lists: readonly (readonly number[])[]): number[] {
  const mark = nextStamp();
  const out: number[] = [];
  for (const list of lists)
    for (const bucket of list)
      if (taken[bucket] !== mark) {
        taken[bucket] = mark;
        out.push(bucket);
      }
  return out;
}

/**
 * Hashed feature buckets (with repeats removed, in order of first appearance) of the words in
 * [from, to). Each feature is the FNV-1a hash of `prefix + kind + text`, computed by continuing the
 * hash over the parts instead of building the strings: the build runs this on every sentence of
 * every review.
 */
export function featuresOf(
  tokens: SentenceTokens,
  from = 0,
  to = tokens.words.length,
  prefix = '',
): number[] {
  const mark = nextStamp();
  const out: number[] = [];
  const start = fnv(FNV_OFFSET, prefix);
  const kind = (name: string) => fnv(start, name);
  const [wordKind, negatedKind, contrastKind, bigramKind, triKind, fourKind] = [
    kind('w:'),
    kind('n:'),
    kind('c:'),
    kind('b:'),
    kind('3:'),
    kind('4:'),
  ];
  const add = (hash: number) => {
    const bucket = (hash >>> 0) & MASK;
    if (taken[bucket] !== mark) {
      taken[bucket] = mark;
      out.push(bucket);
    }
  };
  add(fnv(start, '<bias>'));
  const { words, negated, afterContrast } = tokens;
  for (let i = from; i < to; i++) {
    const word = words[i]!;
    add(fnv(wordKind, word));
    if (negated[i]) add(fnv(negatedKind, word));
    if (afterContrast[i]) add(fnv(contrastKind, word));
    // The pairs' hashes all start with the word's.
    const pair = i + 1 < to ? fnv(bigramKind, word) : 0;
    if (i + 1 < to) add(fnv(fnv(pair, ' '), words[i + 1]!));
    // Word pairs one and two words apart ("never _ back", "still _ _ waiting"), which carry
    // phrases that a word in between breaks up.
    if (i + 2 < to) add(fnv(fnv(pair, ' _ '), words[i + 2]!));
    if (i + 3 < to) add(fnv(fnv(pair, ' _ _ '), words[i + 3]!));
    // Character 3- and 4-grams of "<word>" (the word between boundary marks), for words of 3
    // letters or more.
    const length = word.length + 2;
    if (length > 4)
      for (let k = 0; k + 3 <= length; k++) {
        add(paddedHash(triKind, word, k, 3));
        if (k + 4 <= length) add(paddedHash(fourKind, word, k, 4));
      }
  }
  if (to - from > 25) add(fnv(start, '<long>'));
  return out;
}

/** FNV-1a continued from `hash` over `<word>`[from, from + length). */
function paddedHash(hash: number, word: string, from: number, length: number): number {
  let h = hash;
  for (let i = from; i < from + length; i++) {
    h ^= i === 0 ? 60 : i === word.length + 1 ? 62 : word.charCodeAt(i - 1);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}
