// Features of a review sentence for the learned aspect model: folded words, word bigrams,
// character 3- and 4-grams inside words (robust to typos and text-speak), words marked as negated
// (after not/no/never/n't … up to the clause's end) and words after a contrast (but/though/
// however …), all hashed into a fixed number of buckets. Pure and allocation-light: the build runs
// it on every sentence of every review.
import { foldText } from '../../text.ts';

export const FEATURE_BITS = 18;
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

/** FNV-1a, 32-bit, of a string: the bucket of a feature. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & MASK;
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
  const folded = foldText(text).replace(/[’`]/g, "'").replace(/n't\b/g, 'nt').replace(/'/g, '');
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

/** Hashed feature buckets (with repeats removed) of the words in [from, to). */
export function featuresOf(
  tokens: SentenceTokens,
  from = 0,
  to = tokens.words.length,
  prefix = '',
): number[] {
  const seen = new Set<number>();
  const add = (feature: string) => seen.add(hashFeature(prefix + feature));
  add('<bias>');
  const { words, negated, afterContrast } = tokens;
  for (let i = from; i < to; i++) {
    const word = words[i]!;
    add(`w:${word}`);
    if (negated[i]) add(`n:${word}`);
    if (afterContrast[i]) add(`c:${word}`);
    if (i + 1 < to) add(`b:${word} ${words[i + 1]}`);
    const padded = `<${word}>`;
    if (padded.length > 4)
      for (let k = 0; k + 3 <= padded.length; k++) {
        add(`3:${padded.slice(k, k + 3)}`);
        if (k + 4 <= padded.length) add(`4:${padded.slice(k, k + 4)}`);
      }
  }
  if (to - from > 25) add('<long>');
  return [...seen];
}
