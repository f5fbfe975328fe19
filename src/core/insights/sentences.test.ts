import { describe, expect, test } from 'vitest';
import { MAX_RUN, splitSentences, titleAsSentence, tokenizeSentence } from './sentences.ts';

describe('splitSentences', () => {
  test('splits paragraphs, then sentences, into tokens with their tags', () => {
    const sentences = splitSentences(
      'The crew was great. The price was fair.\n\nWould hire again!',
    );
    expect(sentences.map((s) => s.text)).toEqual([
      'The crew was great.',
      'The price was fair.',
      'Would hire again!',
    ]);
    expect(sentences[0]!.words).toEqual(['The', 'crew', 'was', 'great', '.']);
    expect(sentences[0]!.pos).toEqual(['DET', 'NOUN', 'AUX', 'ADJ', 'PUNCT']);
  });

  test('a number with its unit written on ends a sentence before a capital ("by 1pm. Clean")', () => {
    const texts = (text: string) => splitSentences(text).map((s) => s.text);
    expect(texts('They were done by 1pm. Clean, quick and polite.')).toEqual([
      'They were done by 1pm.',
      'Clean, quick and polite.',
    ]);
    expect(texts('Arrived 8AM. Left 5pm. Paid 10k. "Worth it."')).toEqual([
      'Arrived 8AM.',
      'Left 5pm.',
      'Paid 10k.',
      '"Worth it."',
    ]);
    // Before a small letter the sentence goes on; "3 p.m." is wink's own and stays as it was.
    expect(texts('They use 30lb. felt paper.')).toEqual(['They use 30lb. felt paper.']);
    expect(texts('Left by 3 p.m. The yard was clean.')).toEqual([
      'Left by 3 p.m.',
      'The yard was clean.',
    ]);
  });

  test('a run without a space longer than MAX_RUN is a sentence of one token that is no word', () => {
    // A pasted image: wink's tokenizer would take minutes over 300,000 characters.
    const blob = 'iVBORw0KGgo'.repeat(30_000);
    const sentences = splitSentences(`Good repair. Photo: ${blob} Thanks again.`);
    expect(sentences.map((s) => s.text)).toEqual(['Good repair.', 'Photo:', blob, 'Thanks again.']);
    expect(sentences[2]).toEqual({
      text: blob,
      words: [blob],
      lemmas: [blob],
      pos: ['X'],
      types: ['symbol'],
      spaces: [''],
      stopWords: [false],
    });
  });

  test('a run of MAX_RUN characters is still read by wink, as a long URL is', () => {
    const url = `https://example.com/${'a'.repeat(MAX_RUN - 20)}`;
    expect(url).toHaveLength(MAX_RUN);
    const sentences = splitSentences(`Photos are at ${url} for anyone.`);
    expect(sentences).toHaveLength(1);
    expect(sentences[0]!.words).toContain(url);
    expect(sentences[0]!.types[sentences[0]!.words.indexOf(url)]).toBe('url');
  });
});

describe('tokenizeSentence', () => {
  test('keeps the text one sentence, a long run a token of it, spaces as written', () => {
    const run = '-'.repeat(MAX_RUN + 1);
    const sentence = tokenizeSentence(`Okay job ${run} the end.`);
    expect(sentence.text).toBe(`Okay job ${run} the end.`);
    expect(sentence.words).toEqual(['Okay', 'job', run, 'the', 'end', '.']);
    expect(sentence.spaces).toEqual(['', ' ', ' ', ' ', ' ', '']);
    expect(sentence.pos[2]).toBe('X');
    expect(sentence.lemmas).toHaveLength(6);
    expect(sentence.stopWords).toHaveLength(6);
  });

  test('an empty text has no tokens', () => {
    expect(tokenizeSentence('  \n ')).toEqual({
      text: '',
      words: [],
      lemmas: [],
      pos: [],
      types: [],
      spaces: [],
      stopWords: [],
    });
  });
});

describe('titleAsSentence', () => {
  test('a title in title case is lower-cased after its first word, so its nouns read as nouns', () => {
    expect(titleAsSentence('Ice Dam Removal Done Right')).toBe('Ice dam removal done right');
    const [sentence] = splitSentences(titleAsSentence('Still Waiting On Warranty Paperwork'));
    expect(sentence!.pos.slice(-2)).toEqual(['NOUN', 'NOUN']);
  });

  test('a title in sentence case, or with a lower-case word of four letters or more, stays', () => {
    expect(titleAsSentence('Leak traced to a nail pop six feet away')).toBe(
      'Leak traced to a nail pop six feet away',
    );
    expect(titleAsSentence('Mike from Summit was great')).toBe('Mike from Summit was great');
    expect(titleAsSentence('Terrible')).toBe('Terrible');
  });
});
