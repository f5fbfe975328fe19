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

/** The sentences of a review: paragraphs (blank lines) first, then wink's sentence breaks. */
export function splitSentences(text: string): TokenizedSentence[] {
  const sentences: TokenizedSentence[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const trimmed = normalise(paragraph);
    if (trimmed.length === 0) continue;
    nlp()
      .readDoc(trimmed)
      .sentences()
      .each((sentence: unknown) => {
        const tokenized = tokenize(sentence as unknown as WinkUnit);
        if (tokenized.text.length > 0) sentences.push(tokenized);
      });
  }
  return sentences;
}

/** `text` as one sentence, however many wink would find (the labelled sets are per sentence). */
export function tokenizeSentence(text: string): TokenizedSentence {
  const trimmed = normalise(text);
  if (trimmed.length === 0)
    return { text: '', words: [], lemmas: [], pos: [], types: [], spaces: [], stopWords: [] };
  return tokenize(nlp().readDoc(trimmed) as unknown as WinkUnit);
}
