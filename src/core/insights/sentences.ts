// Review text as sentences of tokens (wink-nlp with its English lite model): one pass that the
// aspect analyzer and the topic finder share. Pure: wink keeps no state between documents.
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface TokenizedSentence {
  text: string;
  words: string[];
  lemmas: string[];
  /** Universal POS tags (NOUN, VERB, ADJ, …) */
  pos: string[];
  /** wink token types (word, number, currency, time, punctuation, …) */
  types: string[];
  /** spaces before each token ("" inside "no-show") */
  spaces: string[];
  stopWords: boolean[];
}

// One instance per process saves the model's start-up. Only sentence breaks and POS tags (which
// lemmas need) run: wink's entities, negation flags and sentiment are not used. Negation is the
// analyzer's, scoped to a clause, on wink's split contractions ("didn't" → did + not).
let sharedNlp: WinkMethods | undefined;
function nlp(): WinkMethods {
  sharedNlp ??= winkNLP(model, ['sbd', 'pos']);
  return sharedNlp;
}

interface WinkUnit {
  tokens(): { out(helper?: unknown): unknown };
  out(): string;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

function tokenize(unit: WinkUnit): TokenizedSentence {
  const its = nlp().its;
  const tokens = unit.tokens();
  return {
    text: normalise(unit.out()),
    words: tokens.out() as string[],
    lemmas: tokens.out(its.lemma) as string[],
    pos: tokens.out(its.pos) as string[],
    types: tokens.out(its.type) as string[],
    spaces: tokens.out(its.precedingSpaces) as string[],
    stopWords: tokens.out(its.stopWordFlag) as boolean[],
  };
}

/**
 * The longest run of characters without a space that wink reads. Its tokenizer takes time that
 * grows with the square of such a run (a pasted base64 image or a line of dashes: 20,000
 * characters take seconds, 200,000 a minute), and no word is this long; a longer run stands alone
 * as one token that is no word (part of speech X), which is what it would mean to the analysis.
 */
export const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

/** A normalised text's parts, in order: text for wink, and runs too long for it. */
function parts(normalised: string): { text: string; long: boolean }[] {
  const out: { text: string; long: boolean }[] = [];
  let at = 0;
  for (const match of normalised.matchAll(LONG_RUN)) {
    const before = normalised.slice(at, match.index).trim();
    if (before.length > 0) out.push({ text: before, long: false });
    out.push({ text: match[0], long: true });
    at = match.index + match[0].length;
  }
  const rest = normalised.slice(at).trim();
  if (rest.length > 0) out.push({ text: rest, long: false });
  return out;
}

/** A run too long for wink as a sentence of one token. */
function longRun(run: string): TokenizedSentence {
  return {
    text: run,
    words: [run],
    lemmas: [run],
    pos: ['X'],
    types: ['symbol'],
    spaces: [''],
    stopWords: [false],
  };
}

/**
 * Where a number with a unit written on to it ends a sentence: "done by 1pm. Clean", "paid 10k.
 * Worth it", "a 20ft. Tall". Wink reads "1pm." as one token, a time like "p.m.", and runs the two
 * sentences together.
 */
const UNIT_STOP = /(?<=\b\d[\d,.:]*[a-zA-Z]{1,3}\.)\s+(?=["'\u2018\u201c(]?\p{Lu})/gu;

/**
 * The sentences of a review: paragraphs (blank lines) first, then wink's sentence breaks, and a
 * break after a number with its unit (UNIT_STOP); a run of more than MAX_RUN characters without
 * a space is a sentence of its own.
 */
export function splitSentences(text: string): TokenizedSentence[] {
  const sentences: TokenizedSentence[] = [];
  for (const paragraph of text.split(/\n\s*\n/))
    for (const part of parts(normalise(paragraph))) {
      if (part.long) {
        sentences.push(longRun(part.text));
        continue;
      }
      for (const piece of part.text.split(UNIT_STOP))
        nlp()
          .readDoc(piece)
          .sentences()
          .each((sentence: unknown) => {
            const tokenized = tokenize(sentence as unknown as WinkUnit);
            if (tokenized.text.length > 0) sentences.push(tokenized);
          });
    }
  return sentences;
}

/**
 * A review's title as the tagger reads a sentence: one in title case ("Ice Dam Removal Done
 * Right") is lower-cased after its first word, or every word would read as a name.
 */
export function titleAsSentence(title: string): string {
  const words = title.split(/\s+/).filter((word) => /^\p{L}{4,}/u.test(word));
  const titleCase = words.length >= 2 && words.every((word) => /^\p{Lu}/u.test(word));
  if (!titleCase) return title;
  return title.replace(
    /(\s)(\p{Lu})/gu,
    (_, space: string, letter: string) => space + letter.toLowerCase(),
  );
}

/** `text` as one sentence, however many wink would find (the labelled sets are per sentence). */
export function tokenizeSentence(text: string): TokenizedSentence {
  const trimmed = normalise(text);
  const empty: TokenizedSentence = {
    text: '',
    words: [],
    lemmas: [],
    pos: [],
    types: [],
    spaces: [],
    stopWords: [],
  };
  const pieces = parts(trimmed).map((part) =>
    part.long ? longRun(part.text) : tokenize(nlp().readDoc(part.text) as unknown as WinkUnit),
  );
  if (pieces.length === 1) return pieces[0]!;
  // The parts were apart by one space (the text is normalised).
  return pieces.reduce(
    (sentence, piece, index) => ({
      text: trimmed,
      words: [...sentence.words, ...piece.words],
      lemmas: [...sentence.lemmas, ...piece.lemmas],
      pos: [...sentence.pos, ...piece.pos],
      types: [...sentence.types, ...piece.types],
      spaces: [...sentence.spaces, ...piece.spaces.map((s, i) => (i === 0 && index > 0 ? ' ' : s))],
      stopWords: [...sentence.stopWords, ...piece.stopWords],
    }),
    empty,
  );
}
