import { describe, expect, test } from 'vitest';
import { combineSentenceOpinions, createAspectAnalyzer, type AspectOpinion } from './aspects.ts';
import { ASPECT_IDS, LexiconSchema, type AspectId, type LexiconInput } from './lexicon.ts';

type AspectsInput = LexiconInput['aspects'];

/** A small lexicon that exercises the analyzer's rules, not the shipped content. */
function makeLexicon(aspects: Partial<AspectsInput> = {}, extra: Partial<LexiconInput> = {}) {
  return LexiconSchema.parse({
    version: 1,
    negators: ['not', 'no', 'never', 'without', 'nobody'],
    not_negations: ["not|n't ~ believe"],
    contrast: ['but', 'though'],
    clause_breaks: ['and', 'because'],
    polarity: { positive: ['great', 'good', 'fair'], negative: ['bad', 'terrible', 'rude'] },
    aspects: {
      ...Object.fromEntries(ASPECT_IDS.map((id) => [id, {}])),
      workmanship: { targets: ['roof'], negative: ['still ~ leak|leaks'] },
      communication: {
        positive: ['call|called ~ back'],
        negative: ['voicemail'],
        absorbs: ['timeliness'],
      },
      timeliness: { positive: ['on time', 'fast'], negative: ['late'] },
      cleanup: {
        cues: ['nail|nails'],
        positive: ['not a single nail'],
        negative: ['nail|nails ~ in ~ driveway|yard'],
      },
      price_value: { cues: ['price'], qualifiers: { negative: ['steep', 'high'] } },
      professionalism: { targets: ['crew'], positive: ['polite'] },
      customer_service: { targets: ['office'] },
      warranty: { cues: ['warranty'], overrides: ['workmanship'] },
      ...aspects,
    },
    redirects: [{ from: 'professionalism', to: 'customer_service', when: ['office'] }],
    ...extra,
  });
}

const analyzer = createAspectAnalyzer(makeLexicon());
const analyze = (text: string, rating?: number) => analyzer.analyzeSentence(text, rating);
const pairs = (opinions: AspectOpinion[]) =>
  Object.fromEntries(opinions.map((o) => [o.aspect, o.polarity]));

describe('negation', () => {
  test('a negated negative cue is positive: "not a single nail left"', () => {
    expect(pairs(analyze('There was not a single nail left in the yard.'))).toEqual({
      cleanup: 'positive',
    });
  });

  test('a negated positive cue is negative: "never called back"', () => {
    expect(pairs(analyze('They never called us back.'))).toEqual({ communication: 'negative' });
  });

  test('a negator reaches to the end of its clause, not past "and"', () => {
    expect(pairs(analyze('They did not call back and the crew was polite.'))).toEqual({
      communication: 'negative',
      professionalism: 'positive',
    });
  });

  test('a phrase that is not a negation does not flip ("could not believe how fast")', () => {
    expect(pairs(analyze('I could not believe how fast they were.'))).toEqual({
      timeliness: 'positive',
    });
  });

  test('a negated neutral cue is the thing missing: "no price given"', () => {
    expect(pairs(analyze('There was no price on the paper.'))).toEqual({ price_value: 'negative' });
  });
});

describe('contrast', () => {
  test('each side of "but" keeps its own aspect: great roof, office never called back', () => {
    expect(pairs(analyze('Great roof but the office never called back.'))).toEqual({
      workmanship: 'positive',
      communication: 'negative',
    });
  });

  test('one aspect on both sides of "but" takes the stance after it', () => {
    expect(pairs(analyze('The crew was polite but the crew was rude to my wife.'))).toEqual({
      professionalism: 'negative',
    });
  });

  test('a balanced clause is neutral', () => {
    expect(pairs(analyze('The roof is good or bad.'))).toEqual({ workmanship: 'neutral' });
  });
});

describe('complaints stated as facts', () => {
  test('nails in the driveway for weeks is cleanup negative without an opinion word', () => {
    expect(pairs(analyze('There were nails in our driveway for weeks.'))).toEqual({
      cleanup: 'negative',
    });
  });

  test('a leak that is still there is workmanship negative', () => {
    expect(pairs(analyze('The garage still leaks.'))).toEqual({ workmanship: 'negative' });
  });
});

describe('multiple aspects', () => {
  test('every aspect of a sentence is reported once, in ASPECT_IDS order', () => {
    expect(
      analyze('They were on time, the crew was polite and not a single nail was left.'),
    ).toEqual([
      { aspect: 'timeliness', polarity: 'positive' },
      { aspect: 'cleanup', polarity: 'positive' },
      { aspect: 'professionalism', polarity: 'positive' },
    ]);
  });

  test('a qualifier counts only for its aspect and only where the aspect is named', () => {
    expect(pairs(analyze('The roof is great, the price was steep.'))).toEqual({
      workmanship: 'positive',
      price_value: 'negative',
    });
    expect(analyze('The hill behind the house is steep.')).toEqual([]);
  });

  test('an absorbing aspect takes over the other in its clause (reply speed is communication)', () => {
    expect(pairs(analyze('They called back fast.'))).toEqual({ communication: 'positive' });
  });

  test('an overriding aspect drops the other from its part of the sentence', () => {
    expect(pairs(analyze('The warranty was great, the garage still leaks.'))).toEqual({
      warranty: 'positive',
    });
  });

  test('a redirect moves an aspect where the clause names its cue (rude office staff)', () => {
    expect(pairs(analyze('The office was rude.'))).toEqual({ customer_service: 'negative' });
    expect(pairs(analyze('The crew was rude.'))).toEqual({ professionalism: 'negative' });
  });
});

describe('sentences without an aspect', () => {
  test.each([
    ['Highly recommend!'],
    ['Great experience overall.'],
    ['We replaced the roof.'],
    [''],
  ])('%j has no aspect', (text) => {
    expect(analyze(text)).toEqual([]);
  });

  test('a target without an opinion word in its clause is not a mention', () => {
    expect(analyze('The crew arrived and the roof went on.')).toEqual([]);
  });
});

describe('star rating as a prior', () => {
  test('breaks a tie in a sentence that holds opinions', () => {
    const text = 'The roof is good or bad.';
    expect(pairs(analyze(text, 5))).toEqual({ workmanship: 'positive' });
    expect(pairs(analyze(text, 1))).toEqual({ workmanship: 'negative' });
    expect(pairs(analyze(text, 3))).toEqual({ workmanship: 'neutral' });
  });

  test('does not colour a plain fact', () => {
    expect(pairs(analyze('The price was 9000 dollars.', 5))).toEqual({ price_value: 'neutral' });
  });
});

describe('spelling slips', () => {
  test('a long misspelt lexicon word is read as the word', () => {
    const lexicon = makeLexicon({ professionalism: { positive: ['professional'] } });
    expect(pairs(createAspectAnalyzer(lexicon).analyzeSentence('Very proffesional guys.'))).toEqual(
      {
        professionalism: 'positive',
      },
    );
  });

  test('a word that only differs in its ending is not a slip', () => {
    const lexicon = makeLexicon({ professionalism: { positive: ['experienced'] } });
    expect(createAspectAnalyzer(lexicon).analyzeSentence('Great experience.')).toEqual([]);
  });
});

describe('analyzeText and analyzeReview', () => {
  test('split paragraphs and sentences, numbering them', () => {
    const sentences = analyzer.analyzeText('Great roof. The office was rude.\n\nNails in the yard');
    expect(sentences.map((s) => [s.index, s.text])).toEqual([
      [0, 'Great roof.'],
      [1, 'The office was rude.'],
      [2, 'Nails in the yard'],
    ]);
  });

  test('the review takes the majority of its sentences per aspect', () => {
    const review = analyzer.analyzeReview(
      'They were late. They were late again. They were on time once.',
    );
    expect(pairs(review.aspects)).toEqual({ timeliness: 'negative' });
  });
});

describe('combineSentenceOpinions', () => {
  const o = (aspect: AspectId, polarity: AspectOpinion['polarity']): AspectOpinion => ({
    aspect,
    polarity,
  });

  test('a tie goes to the rating, and without one to the later sentence', () => {
    const sentences = [[o('cleanup', 'negative')], [o('cleanup', 'positive')]];
    expect(combineSentenceOpinions(sentences, 5)).toEqual([o('cleanup', 'positive')]);
    expect(combineSentenceOpinions(sentences, 1)).toEqual([o('cleanup', 'negative')]);
    expect(combineSentenceOpinions([...sentences].reverse())).toEqual([o('cleanup', 'negative')]);
  });

  test('aspects come out in ASPECT_IDS order', () => {
    const sentences = [[o('warranty', 'positive')], [o('workmanship', 'neutral')]];
    expect(combineSentenceOpinions(sentences).map((x) => x.aspect)).toEqual([
      'workmanship',
      'warranty',
    ]);
  });
});

test('the same input gives the same output, call after call', () => {
  const text = 'Great roof but the office never called back, and nails in the driveway.';
  const first = JSON.stringify(createAspectAnalyzer(makeLexicon()).analyzeText(text, 4));
  for (let i = 0; i < 3; i++)
    expect(JSON.stringify(createAspectAnalyzer(makeLexicon()).analyzeText(text, 4))).toBe(first);
});

test('explainSentence shows the matched phrases and what was negated', () => {
  const trace = analyzer.explainSentence('They never called us back.');
  expect(trace.clauses).toEqual(['[0] they never ¬called ¬us ¬back', '[0] .']);
  expect(trace.matches).toContainEqual(
    expect.objectContaining({
      phrase: 'call|called ~ back',
      aspect: 'communication',
      negated: true,
    }),
  );
});
