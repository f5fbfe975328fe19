import { describe, expect, test } from 'vitest';
import type { Business, Review } from '../review.ts';
import { createAspectAnalyzer } from './aspects.ts';
import { monthsBefore } from './aspect-stats.ts';
import { INSIGHTS_SECTIONS, InsightsDatasetSchema } from './dataset-schema.ts';
import { buildInsights } from './dataset.ts';
import { nounsOf, themeLabel } from './topics.ts';
import type { TokenizedSentence } from './sentences.ts';
import type { InsightsEditorial } from './editorial.ts';
import { ASPECT_IDS, LexiconSchema } from './lexicon.ts';
import { makeBusiness, makeReview } from '../../../test/support/builders.ts';

function makeLexicon(aspects: Record<string, unknown> = {}) {
  return LexiconSchema.parse({
    version: 1,
    negators: ['not', 'no', 'never'],
    contrast: ['but'],
    clause_breaks: ['and'],
    polarity: { positive: ['great', 'good'], negative: ['bad', 'terrible'] },
    aspects: {
      ...Object.fromEntries(ASPECT_IDS.map((id) => [id, {}])),
      workmanship: { targets: ['roof'], negative: ['still ~ leak|leaks'] },
      communication: { positive: ['call|called ~ back'] },
      timeliness: { positive: ['on time'], negative: ['late'] },
      cleanup: { cues: ['nail|nails'], negative: ['nail|nails ~ in ~ driveway|yard'] },
      price_value: { cues: ['price'], positive: ['fair'] },
      ...aspects,
    },
  });
}

/** The business the insights are built for: its name, crew, services and area. */
const INSIGHTS_BUSINESS: Partial<Business> = {
  name: 'Test Roofing',
  services: [
    { id: 'roof-repair', name: 'Roof Repair' },
    { id: 'gutters', name: 'Gutters' },
  ],
  technicians: [
    { id: 'mike-alvarez', name: 'Mike Alvarez', role: 'Crew lead' },
    { id: 'sam-lee', name: 'Sam Lee' },
  ],
  service_areas: [{ id: 'lakewood', name: 'Lakewood' }],
};

const editorial: InsightsEditorial = {
  faq: [{ question: 'Do you fix leaks?', answer: 'Yes.' }],
  summary: { title: 'What they say', text: 'Mostly good things.' },
};

/** A varied set: recent and older reviews, several technicians, a recurring phrase. */
function makeReviews(): Review[] {
  const texts: [number, string][] = [
    [5, 'Great roof and they were on time. The pipe boot was replaced.'],
    [2, 'They were late. The office never called back about the pipe boot.'],
    [4, 'The price was fair. Not a single nail in the yard.'],
    [1, 'The garage still leaks. There were nails in the driveway for weeks.'],
    [5, 'They called back the same day. Great roof! The pipe boot looks new.'],
    [3, 'The roof is good but they were late.'],
    [5, 'Highly recommend them to anyone.'],
  ];
  const dates = [
    '2021-03-02',
    '2022-07-19',
    '2023-11-30',
    '2024-02-29',
    '2024-06-01',
    '2024-09-15',
  ];
  const reviews: Review[] = [];
  for (let i = 0; i < 21; i++) {
    const [rating, text] = texts[i % texts.length]!;
    reviews.push(
      makeReview({
        id: `r-${String(i).padStart(2, '0')}`,
        rating,
        text,
        date: dates[i % dates.length]!,
        technicians: i % 3 === 0 ? ['Mike Alvarez'] : i % 3 === 1 ? ['Sam Lee'] : [],
        service_ids: i % 2 === 0 ? ['roof-repair'] : ['gutters'],
        service_area_id: i % 4 === 0 ? 'lakewood' : null,
      }),
    );
  }
  return reviews;
}

// The aggregation rules are tested with the lexicon alone (model: null), whose findings these
// reviews were written for; the learned pipeline has tests of its own below.
const build = (reviews: readonly Review[]) =>
  buildInsights(makeBusiness(INSIGHTS_BUSINESS), reviews, editorial, makeLexicon(), null);

test('the dataset is byte-identical for the same content, in any input order', () => {
  const reviews = makeReviews();
  const first = JSON.stringify(build(reviews));
  expect(JSON.stringify(build(reviews))).toBe(first);
  expect(JSON.stringify(build([...reviews].reverse()))).toBe(first);
  const shuffled = [...reviews].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  expect(JSON.stringify(build(shuffled))).toBe(first);
});

test('the dataset matches its schema and has every section get_insights offers', () => {
  const dataset = build(makeReviews());
  expect(InsightsDatasetSchema.parse(dataset)).toEqual(dataset);
  for (const section of INSIGHTS_SECTIONS) expect(dataset[section]).toBeDefined();
  expect(Object.keys(dataset.aspects)).toEqual([...ASPECT_IDS]);
});

describe('counts agree with the per-review analysis', () => {
  const reviews = makeReviews();
  const dataset = build(reviews);
  const analyzer = createAspectAnalyzer(makeLexicon());
  const perReview = reviews.map((r) => ({
    review: r,
    ...analyzer.analyzeReview(r.text, r.rating),
  }));

  test.each(ASPECT_IDS)('%s', (aspect) => {
    const stats = dataset.aspects[aspect];
    const opinions = perReview.flatMap((r) => r.aspects.filter((o) => o.aspect === aspect));
    const sentences = perReview.flatMap((r) =>
      r.sentences.flatMap((s) => s.aspects.filter((o) => o.aspect === aspect)),
    );
    const count = (list: typeof opinions, polarity: string) =>
      list.filter((o) => o.polarity === polarity).length;
    expect(stats.review_count).toBe(opinions.length);
    expect([stats.positive, stats.negative, stats.neutral]).toEqual([
      count(opinions, 'positive'),
      count(opinions, 'negative'),
      count(opinions, 'neutral'),
    ]);
    expect(stats.sentence_count).toBe(sentences.length);
    expect(stats.sentences).toEqual({
      positive: count(sentences, 'positive'),
      negative: count(sentences, 'negative'),
      neutral: count(sentences, 'neutral'),
    });
    expect(stats.score).toBe(
      opinions.length === 0
        ? null
        : Math.round(((stats.positive - stats.negative) / opinions.length) * 100) / 100,
    );
    const { recent, earlier } = stats.trend;
    expect(recent.review_count + earlier.review_count).toBe(stats.review_count);
  });

  test('each entity breakdown counts the aspects of its own reviews', () => {
    const mike = dataset.entities.technicians.find((t) => t.id === 'mike-alvarez')!;
    const his = perReview.filter((r) => r.review.technicians.includes('Mike Alvarez'));
    expect(mike.mention_count).toBe(his.length);
    for (const aspect of ASPECT_IDS) {
      const opinions = his.flatMap((r) => r.aspects.filter((o) => o.aspect === aspect));
      expect(mike.aspects[aspect]?.review_count ?? 0).toBe(opinions.length);
      expect(mike.aspects[aspect]?.negative ?? 0).toBe(
        opinions.filter((o) => o.polarity === 'negative').length,
      );
    }
    expect(mike.role).toBe('Crew lead');
  });

  test('quotes are sentences of the reviews they name, one per review', () => {
    for (const aspect of ASPECT_IDS) {
      const quotes = dataset.aspects[aspect].quotes;
      expect(new Set(quotes.map((q) => q.review_id)).size).toBe(quotes.length);
      for (const quote of quotes) {
        const review = perReview.find((r) => r.review.id === quote.review_id)!;
        const sentence = review.sentences.find((s) => s.text === quote.text)!;
        expect(review.review.text).toContain(quote.text);
        expect(sentence.aspects).toContainEqual({ aspect, polarity: quote.polarity });
      }
    }
  });
});

test('a quote is the characters of its review, line breaks and runs of spaces as written', () => {
  const reviews = [
    makeReview({
      id: 'wrapped',
      date: '2024-05-01',
      text: 'They came on a Tuesday.\nThe price they quoted us\nwas  fair and honest.\n\nThanks.',
    }),
  ];
  const [quote] = build(reviews).aspects.price_value.quotes;
  expect(quote).toEqual({
    review_id: 'wrapped',
    text: 'The price they quoted us\nwas  fair and honest.',
    polarity: 'positive',
  });
});

test("a quote leaves out markdown's line markers before its first word", () => {
  const reviews = [
    makeReview({
      id: 'quoted',
      date: '2024-05-01',
      text: '> The crew was rude.\n>\n> The price was fair and honest.',
    }),
    makeReview({
      id: 'listed',
      date: '2024-04-01',
      text: 'Pros:\n\n- The price they quoted us was fair.',
    }),
    makeReview({ id: 'bold', date: '2024-03-01', text: '**Fair price**, honest quote.' }),
  ];
  const quotes = build(reviews).aspects.price_value.quotes;
  expect(quotes.map((q) => q.text)).toEqual([
    'The price was fair and honest.',
    'The price they quoted us was fair.',
    '**Fair price**, honest quote.',
  ]);
  for (const quote of quotes)
    expect(reviews.find((r) => r.id === quote.review_id)!.text).toContain(quote.text);
});

test('a sentence several reviews share word for word is quoted once; other quotes fill its place', () => {
  const texts = [
    'The price they quoted us was fair.',
    'The price they quoted us was fair.',
    'the price they  quoted us was FAIR.',
    'A fair price for a new roof, we thought.',
    'The price was fair and honest, we thought.',
  ];
  const reviews = texts.map((text, i) =>
    makeReview({ id: `q-${i}`, date: `2024-0${5 - i}-01`, text }),
  );
  const quotes = build(reviews).aspects.price_value.quotes.map((q) => q.text);
  expect(quotes).toHaveLength(3);
  expect(new Set(quotes.map((q) => q.toLowerCase().replace(/\s+/g, ' '))).size).toBe(3);
});

describe('trend', () => {
  test('the last 12 months end at the newest review, not at the clock', () => {
    const trend = build(makeReviews()).aspects.timeliness.trend;
    expect(trend.until).toBe('2024-09-15');
    expect(trend.since).toBe('2023-09-15');
  });

  test('an aspect that got worse is "worsening", and fewer than 3 reviews a side give no direction', () => {
    const late = (id: string, date: string) =>
      makeReview({ id, date, rating: 2, text: 'They were late.' });
    const onTime = (id: string, date: string) =>
      makeReview({ id, date, rating: 5, text: 'They were on time.' });
    const reviews = [
      onTime('a', '2020-01-01'),
      onTime('b', '2020-02-01'),
      onTime('c', '2020-03-01'),
      late('d', '2024-01-01'),
      late('e', '2024-02-01'),
      late('f', '2024-03-01'),
    ];
    expect(build(reviews).aspects.timeliness.trend).toMatchObject({
      recent: { review_count: 3, score: -1 },
      earlier: { review_count: 3, score: 1 },
      change: -2,
      direction: 'worsening',
    });
    expect(build(reviews.slice(1)).aspects.timeliness.trend.direction).toBeNull();
  });

  test.each([
    ['2024-09-15', '2023-09-15'],
    ['2024-02-29', '2023-02-28'],
    ['2024-01-31', '2023-01-31'],
  ])('12 months before %s is %s', (date, expected) => {
    expect(monthsBefore(date, 12)).toBe(expected);
  });
});

describe('topics', () => {
  test('a phrase used in several reviews is a topic with its reviews and their mean rating', () => {
    const reviews = makeReviews();
    const topic = build(reviews).topics.find((t) => t.label === 'pipe boot')!;
    const using = reviews.filter((r) => r.text.includes('pipe boot'));
    expect(topic.review_count).toBe(using.length);
    expect([...topic.review_ids].sort()).toEqual(using.map((r) => r.id).sort());
    const mean = using.reduce((sum, r) => sum + r.rating, 0) / using.length;
    expect(topic.average_rating).toBe(Math.round(mean * 100) / 100);
  });

  test('names of technicians and opinion words do not make topics', () => {
    // Half the reviews: a phrase in more than half of them says nothing distinctive.
    const reviews = Array.from({ length: 10 }, (_, i) =>
      makeReview({
        id: `t-${i}`,
        text: i % 2 ? 'Mike Alvarez did a great job on the chimney cap.' : 'Good work.',
      }),
    );
    const labels = build(reviews).topics.map((t) => t.label);
    expect(labels).toContain('chimney cap');
    expect(labels.join(' ')).not.toMatch(/mike|alvarez|great/);
  });
});

describe('topics and the names of technicians and places', () => {
  test('their words are left out where they are names, and kept where they are common words', () => {
    const business = makeBusiness({
      ...INSIGHTS_BUSINESS,
      technicians: [{ id: 'bill-snow', name: 'Bill Snow', aliases: ['Billy'] }],
      service_areas: [
        { id: 'flat-rock', name: 'Flat Rock' },
        { id: 'chimney-rock', name: 'Chimney Rock' },
      ],
    });
    const texts = [
      'Bill Snow put snow guards on our metal roof in Flat Rock.',
      'The snow guards hold. Our flat roof in Chimney Rock is dry now.',
      'They replaced the flat roof and the chimney cap, and Billy explained the final bill.',
      'New chimney cap and snow guards. The final bill matched the quote.',
      'Our flat roof was ponding. Bill Snow and his crew fixed the chimney cap too.',
      'Bill Snow was on time. We live near Chimney Rock and Flat Rock.',
      'Bill Snow cleaned up. Flat Rock folks, call them.',
      ...Array.from({ length: 6 }, () => 'Good work.'),
    ];
    const reviews = texts.map((text, i) => makeReview({ id: `n-${i}`, text }));
    const topics = buildInsights(business, reviews, editorial, makeLexicon(), null).topics;
    const phrases = topics.flatMap((t) => t.keywords);
    expect(phrases).toEqual(
      expect.arrayContaining(['snow guards', 'flat roof', 'chimney cap', 'final bill']),
    );
    expect(phrases.join(' | ')).not.toMatch(/bill snow|flat rock|chimney rock|billy/);
  });
});

describe('topics that reviews of any business raise', () => {
  /**
   * The topics of a business whose reviews are `texts` (ids p-0, p-1, …) and `filler` reviews that
   * say only "Good work.".
   */
  const labelsOf = (
    texts: string[],
    filler = 10,
    { lexicon = makeLexicon(), business = makeBusiness(INSIGHTS_BUSINESS) } = {},
  ) => {
    const reviews = [...texts, ...Array.from({ length: filler }, () => 'Good work.')].map(
      (text, i) => makeReview({ id: `p-${i}`, text }),
    );
    return buildInsights(business, reviews, editorial, lexicon, null).topics;
  };
  /** Three phrases of two reviews each: enough topics that no thing of the trade fills in. */
  const threePhrases = ['pipe boot', 'drip edge', 'ridge cap'].flatMap((phrase) => [
    `The ${phrase} was fine.`,
    `They checked the ${phrase}.`,
  ]);

  test('people and places the business did not list are no topics; a brand before a thing is', () => {
    const topics = labelsOf([
      'The adjuster Rhonda suggested we call them about the Velux skylight.',
      'Our adjuster Rhonda was happy with the Velux skylight.',
      'My neighbor Gary recommended them. We live on Matakana Island.',
      'My neighbor Gary has the same chimney cap. Matakana Island is far out.',
      'The chimney cap fits.',
    ]);
    const labels = topics.map((t) => t.label);
    expect(labels).toEqual(expect.arrayContaining(['velux skylight', 'chimney cap']));
    expect(labels.join(' ')).not.toMatch(/rhonda|gary|matakana|island/);
  });

  test('people named by their role or relation are no topics ("office manager")', () => {
    const labels = labelsOf([
      'The office manager sent the chimney cap photos.',
      'Our office manager contact was quick.',
      'The project manager and my next door neighbor both liked the chimney cap.',
      'The project manager came by twice.',
      'My next door neighbor hired them too.',
      'Our home inspector flagged the flashing.',
      'The home inspector for the buyers signed off.',
    ]).map((t) => t.label);
    expect(labels).toContain('chimney cap');
    expect(labels.join(' | ')).not.toMatch(/manager|neighbor|inspector/);
  });

  test('words of a season, a quantity or a state make no topic ("monsoon season", "single nail")', () => {
    const labels = labelsOf([
      'They recoated the roof before monsoon season.',
      'The house sits empty all monsoon season.',
      'Not a single nail in the yard.',
      'I have not found a single nail since.',
      'The finished roof is stunning and our neighbors love it.',
      'The finished roof looks great from the street.',
      'The chimney cap fits.',
      'They replaced the chimney cap.',
    ]).map((t) => t.label);
    expect(labels).toContain('chimney cap');
    expect(labels.join(' | ')).not.toMatch(/season|single|finished/);
  });

  test('-ing words that name things make topics; an -ing verb does not', () => {
    const labels = labelsOf([
      'They fixed the skylight flashing and the chimney.',
      'The skylight flashing was replaced.',
      'The old flashing was bent.',
      'There was ponding water on the flat roof.',
      'No more ponding water.',
      'The crew working on the roof was polite.',
      'The crew working next door came over.',
    ]).map((t) => t.label);
    expect(labels).toEqual(expect.arrayContaining(['skylight flashing', 'ponding water']));
    expect(labels).not.toContain('crew working');
  });

  test("a small business's services fill in topics, except one that repeats a phrase topic", () => {
    const business = makeBusiness({
      ...INSIGHTS_BUSINESS,
      services: [
        { id: 'flat', name: 'Flat & Low-Slope Roofing' },
        { id: 'gutters', name: 'Gutters' },
        { id: 'roof-repair', name: 'Roof Repair' },
      ],
    });
    const reviews = [
      ['flat', 'They redid our flat roof in a day.'],
      ['flat', 'The flat roof drains now.'],
      ['flat', 'Good work.'],
      ['gutters', 'Good work.'],
      ['gutters', 'Quick and tidy.'],
      ['roof-repair', 'Fixed it.'],
      ['roof-repair', 'Good work.'],
    ].map(([service, text], i) =>
      makeReview({ id: `s-${i}`, text: text!, service_ids: [service!] }),
    );
    const topics = buildInsights(business, reviews, editorial, makeLexicon(), null).topics;
    expect(topics.map((t) => t.label).sort()).toEqual(['flat roof', 'gutters', 'roof repair']);
  });

  test('a word with accents makes topics, one with its unaccented spelling', () => {
    const topics = labelsOf([
      'They rebuilt the façade panel over the porch.',
      'The new facade panel matches the trim.',
      'A cracked façade panel was swapped out the same day.',
      'The crew patched the façade trim too.',
    ]);
    const panel = topics.find((t) => t.id === 'facade-panel')!;
    expect(panel.label).toBe('facade panel');
    expect(panel.review_count).toBe(3);
    expect(topics.map((t) => t.id).every((id) => /^[a-z0-9-]+$/.test(id))).toBe(true);
  });

  test('a review written in capitals counts in the topics it names', () => {
    const topics = labelsOf([
      'The gutter guards clogged in the fall.',
      'New gutter guards on the garage.',
      'THE GUTTER GUARDS ARE GARBAGE.',
    ]);
    const guard = topics.find((t) => t.id === 'gutter-guard')!;
    expect(guard.label).toBe('gutter guards');
    expect(guard.review_count).toBe(3);
    expect(guard.review_ids).toContain('p-2');
  });

  test('reviews in other languages make no topics (the phrase finder reads English)', () => {
    const reviews = (
      [
        ['es', 'Muy buen trabajo, techo nuevo y limpio.'],
        ['es', 'Muy buen trabajo con el techo nuevo.'],
        ['mi', 'Mihi nui ki a koutou.'],
        ['mi', 'Mihi nui, ka pai te mahi.'],
        // English words of the trade in a review in another language count in no topic either.
        ['es', 'Los skylights quedaron perfectos.'],
        ['es', 'Cambiaron los skylights en un día.'],
        ['en-NZ', 'The chimney cap fits.'],
        ['en', 'Another chimney cap.'],
        ...Array.from({ length: 6 }, () => ['en', 'Good work.']),
      ] as [string, string][]
    ).map(([language, text], i) => makeReview({ id: `l-${i}`, language, text }));
    const labels = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      reviews,
      editorial,
      makeLexicon(),
      null,
    ).topics.map((t) => t.label);
    expect(labels).toContain('chimney cap');
    expect(labels.join(' ')).not.toMatch(/buen|trabajo|techo|mihi|nui|skylight/);
  });

  test('reviews in other languages have no aspects and give no quotes (the analysis reads English)', () => {
    const reviews = (
      [
        ['es', 'Mike fue muy amable y profesional. Excelente trabajo, puntuales y limpios.'],
        ['fr', 'Très professionnels, travail excellent et prix correct.'],
        ['en-GB', 'Mike was very professional and the price was fair.'],
      ] as [string, string][]
    ).map(([language, text], i) => makeReview({ id: `x-${i}`, language, text, rating: 5 }));
    const dataset = buildInsights(makeBusiness(INSIGHTS_BUSINESS), reviews, editorial);
    const quoted = ASPECT_IDS.flatMap((aspect) =>
      dataset.aspects[aspect].quotes.map((quote) => quote.review_id),
    );
    expect(new Set(quoted)).toEqual(new Set(['x-2']));
    expect(dataset.aspects.professionalism).toMatchObject({ review_count: 1, positive: 1 });
    expect(dataset.aspects.price_value).toMatchObject({ review_count: 1, positive: 1 });
  });

  test('a topic is labelled as the reviews write it most; its id stays that of the words', () => {
    const topics = labelsOf([
      'They hung seamless gutters on the garage.',
      'The seamless gutters drain well.',
      'One seamless gutter was dented and they swapped it.',
      'The flower beds were covered with tarps.',
      'Not one nail in the flower bed.',
      'Our flower beds survived.',
    ]);
    const gutters = topics.find((t) => t.id === 'seamless-gutter')!;
    expect(gutters).toMatchObject({ label: 'seamless gutters', keywords: ['seamless gutters'] });
    expect(gutters.review_count).toBe(3);
    expect(topics.find((t) => t.id === 'flower-bed')!.label).toBe('flower beds');
  });

  test('words joined by a hyphen are one word of a phrase, however the tagger reads the first', () => {
    const topics = labelsOf([
      'They put on impact-resistant shingles.',
      'Insurance would not pay for the upgrade to impact-resistant shingles.',
      'Impact-resistant shingles were worth it.',
      'A top-notch crew and a follow-up call.',
      'Another top-notch crew, another follow-up call.',
    ]);
    const labels = topics.map((t) => t.label);
    expect(labels).toContain('impact-resistant shingles');
    expect(topics.find((t) => t.label === 'impact-resistant shingles')!.review_count).toBe(3);
    expect(labels.join(' | ')).not.toMatch(/(^|[ |])(resistant|notch|up call)/);
  });

  test('a phrase found only inside a longer one is labelled by the longer one', () => {
    const topics = labelsOf([
      'They handled the ice dam removal in January.',
      'Fast ice dam removal after the storm.',
      'We booked ice dam removal again this winter.',
    ]);
    const dam = topics.find((t) => t.id === 'ice-dam-removal')!;
    expect(dam).toMatchObject({ label: 'ice dam removal', review_count: 3 });
    // Nor is a fragment one of its keywords ("dam removal", and "ice dam", which these reviews
    // only use in "ice dam removal").
    expect(dam.keywords).toEqual(['ice dam removal']);
  });

  test('without a lexicon, praise and complaint still make no topics ("great job", "fair price")', () => {
    const texts = [
      'Great job on the ice dam. Fair price too.',
      'Great job, fair price, professional crew.',
      'Another great job by a professional crew. The ice dam is gone.',
      'Rude crew and a terrible job. The ice dam came back.',
      'Rude crew, terrible job.',
      ...Array.from({ length: 7 }, () => 'Done.'),
    ];
    const reviews = texts.map((text, i) => makeReview({ id: `o-${i}`, text }));
    const labels = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      reviews,
      editorial,
      undefined,
      null,
    ).topics.map((t) => t.label);
    expect(labels).toContain('ice dam');
    expect(labels.join(' | ')).not.toMatch(/great|fair|professional|rude|terrible/);
  });

  test("a small business's reviews with too few phrases and services get the trade's things they name", () => {
    const labels = labelsOf(
      [
        'They cleaned the moss off in an afternoon.',
        'The moss is gone and the skylights are sealed.',
        'Both skylights were resealed.',
        'They checked the skylight over the kitchen.',
        'The chimney was repointed.',
        'Our chimney finally stopped dripping.',
        'The skylights in the hall are dry.',
      ],
      13,
    ).map((t) => t.label);
    expect(labels).toEqual(['skylights', 'chimney', 'moss']);
  });

  test("a review's title counts in the topics it names, in title case too", () => {
    const reviews = [
      { title: 'Warranty paperwork took forever', text: 'They did fix it in the end.' },
      { title: 'Still Waiting On Warranty Paperwork', text: 'Three calls so far.' },
      { title: 'Good crew', text: 'The warranty paperwork came a month late.' },
      { title: 'Muy buen trabajo', text: 'Todo bien.', language: 'es' },
      { title: 'Muy buen trabajo', text: 'Gracias.', language: 'es' },
      ...Array.from({ length: 8 }, () => ({ title: 'Fine', text: 'Good work.' })),
    ].map((fields, i) => makeReview({ id: `t-${i}`, ...fields }));
    const topics = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      reviews,
      editorial,
      makeLexicon(),
      null,
    ).topics;
    const paperwork = topics.find((t) => t.label === 'warranty paperwork')!;
    expect([...paperwork.review_ids].sort()).toEqual(['t-0', 't-1', 't-2']);
    expect(topics.map((t) => t.label).join(' ')).not.toMatch(/buen|trabajo/);
  });

  test('a phrase whose reviews are nearly all in a topic it shares a word with joins that topic', () => {
    const texts = [
      ...Array.from({ length: 3 }, () => 'They did the insurance claim paperwork for us.'),
      ...Array.from({ length: 5 }, () => 'They helped with the insurance claim.'),
    ];
    const topics = labelsOf(texts);
    const claim = topics.find((t) => t.label === 'insurance claim')!;
    // As "insurance claim paperwork": "claim paperwork" is always part of it.
    expect(claim.keywords).toContain('insurance claim paperwork');
    expect(claim.keywords).not.toContain('claim paperwork');
    expect(claim.review_count).toBe(8);
    expect(topics.map((t) => t.label)).not.toContain('claim paperwork');
  });

  test('phrases opening with the same thing of the trade are one theme ("hail claim", "hail damage")', () => {
    const texts = [
      'They walked us through the hail claim.',
      'The hail claim went smoothly.',
      'Our hail claim was approved.',
      'They documented the hail damage.',
      'The hail damage was worse than we thought.',
      'They did a free hail inspection.',
      'The hail inspection took an hour.',
      'The final invoice matched the quote.',
      'The final walkthrough was quick.',
      'They left the final invoice on the porch.',
      'We did the final walkthrough together.',
    ];
    const topics = labelsOf(texts, 20);
    const hail = topics.find((t) => t.label === 'hail claim')!;
    expect(hail.keywords).toEqual(['hail claim', 'hail damage', 'hail inspection']);
    expect(hail.review_count).toBe(7);
    expect(topics.map((t) => t.label).filter((label) => label.startsWith('hail'))).toEqual([
      'hail claim',
    ]);
    // An opening word that is no thing of the trade groups nothing: a final invoice is not a
    // final walkthrough.
    expect(topics.map((t) => t.label)).toEqual(
      expect.arrayContaining(['final invoice', 'final walkthrough']),
    );
  });

  test("a thing of the trade that many of a small business's reviews name in one word is a topic", () => {
    const themed = [
      'They added insulation in the attic.',
      'The insulation made a real difference this winter.',
      'Blown-in insulation was part of the job.',
      'We asked about insulation and got a straight answer.',
      'Nobody else offered insulation.',
      'The shingles look sharp.',
      'We picked the shingles ourselves.',
      'Our shingles were curling.',
      'They matched the shingles.',
      'Old shingles everywhere before.',
    ];
    // More phrases of two reviews each than there are places for topics.
    const thin = ['pipe boot', 'drip edge', 'ridge cap', 'snow guard', 'chimney cap', 'garage door']
      .concat(['fascia board', 'valley metal', 'soffit panel', 'storm door', 'deck railing'])
      .concat(['cedar fence', 'patio cover'])
      .flatMap((phrase) => [`The ${phrase} was fine.`, `They checked the ${phrase}.`]);
    const small = labelsOf([...themed, ...thin], 10);
    const insulation = small.find((t) => t.label === 'insulation')!;
    expect(insulation.review_count).toBe(5);
    expect(small).toHaveLength(12);
    // What most roofs are made of says no more than "roof" does.
    expect(small.map((t) => t.label)).not.toContain('shingles');
    // A business of a hundred reviews or more repeats its phrases: a single word joins them only
    // when they give too few topics. Here insulation is in 15 of 114 reviews, a share that makes a
    // topic in a small business.
    const insulated = [0, 1, 2].flatMap(() => themed.slice(0, 5));
    const large = labelsOf([...insulated, ...thin, ...thin.slice(0, 13)], 60);
    expect(large.map((t) => t.label)).toContain('pipe boot');
    expect(large.map((t) => t.label)).not.toContain('insulation');
  });

  test("the parts of metal roofs are things of the trade too: a metal roofer's topics", () => {
    const metal = [
      'The panels are straight.',
      'They matched the panels to the barn.',
      'Two panels were dented on delivery.',
      'We picked green panels.',
      'Every one of the panels lines up.',
      'A few screws were missed on the ridge.',
      'They came back for the loose screws.',
      'Screws were backing out within a year.',
      'We found screws in the grass.',
    ];
    const topics = labelsOf([...metal, ...threePhrases], 25);
    expect(topics.find((t) => t.label === 'panels')?.review_count).toBe(5);
    expect(topics.find((t) => t.label === 'screws')?.review_count).toBe(4);
  });

  test("a harm or errand a small business's reviews name is a topic by what they judge of it", () => {
    const texts = [
      'We found nails in the driveway for a week.',
      'They left nails in the yard.',
      'Found nails in the driveway after they left.',
      'I kept finding nails in the yard.',
      'The crew let my son hold a nail gun.',
      'They came right after the first snow.',
      'We called them the week of the first snow.',
      'The snow had melted by the time they came.',
      'Booked them before snow season.',
      ...threePhrases,
    ];
    // The lexicon's cleanup complaint, without its cue (which reads any nail as cleanup).
    const lexicon = makeLexicon();
    lexicon.aspects.cleanup!.cues = [];
    const topics = labelsOf(texts, 8, { lexicon });
    const nails = topics.find((t) => t.label === 'nail cleanup')!;
    // The reviews that judge the cleanup, not the one about the nail gun.
    expect(nails.review_ids.toSorted()).toEqual(['p-0', 'p-1', 'p-2', 'p-3']);
    expect(nails).toMatchObject({ id: 'nail-cleanup', keywords: ['nails'], review_count: 4 });
    // A season named as a date judges nothing: no topic.
    expect(topics.map((t) => t.label).join(' | ')).not.toMatch(/snow|^nails?$/);
  });

  test("a sentence's capitalized first word counts where the reviews use it as a thing, not a name", () => {
    const texts = [
      // The tagger reads each first word as a name.
      'Nails in the driveway for a week.',
      'Nails in the yard for days after they left.',
      'Found nails in the driveway after they left.',
      'I kept finding nails in the yard.',
      ...threePhrases,
      // A name: the technician Bill Snow, and a storm's name.
      'Snow was on time every day.',
      'Snow arrived on time.',
      'Snow showed up on time each morning.',
      'Snow came on time.',
      'They came after the first snow.',
      'The snow had melted by then.',
      'Hurricane Ian hit us, and they came on time.',
      'Hurricane Ian passed; they were here on time.',
      'Hurricane Ian left a mess and they were on time.',
      'Hurricane Ian was awful, they showed up on time.',
      'The hurricane was bad.',
      'After the hurricane we waited.',
    ];
    const lexicon = makeLexicon();
    lexicon.aspects.cleanup!.cues = [];
    const business = makeBusiness({
      ...INSIGHTS_BUSINESS,
      technicians: [{ id: 'bill-snow', name: 'Bill Snow', aliases: [] }],
    });
    const topics = labelsOf(texts, 8, { lexicon, business });
    const nails = topics.find((t) => t.label === 'nail cleanup');
    expect(nails?.review_ids.toSorted()).toEqual(['p-0', 'p-1', 'p-2', 'p-3']);
    expect(topics.map((t) => t.label).join(' | ')).not.toMatch(/snow|hurricane/);
  });

  test('a noun read two ways takes one base form, whatever the order of the reviews', () => {
    const sentence = (lemma: string): TokenizedSentence => ({
      text: 'The leaves.',
      words: ['The', 'leaves', '.'],
      lemmas: ['the', lemma, '.'],
      pos: ['DET', 'NOUN', 'PUNCT'],
      types: ['word', 'word', 'punctuation'],
      spaces: ['', ' ', ''],
      stopWords: [true, false, false],
    });
    const both = [sentence('leave'), sentence('leaf')];
    expect(nounsOf(both).get('leaves')).toBe('leaf');
    expect(nounsOf(both.toReversed()).get('leaves')).toBe('leaf');
  });

  test('a word joined by a hyphen to a generic one is a word of a phrase ("single-ply membrane", "half-round gutters")', () => {
    const labels = labelsOf([
      'They laid a single-ply membrane over the garage.',
      'The single-ply membrane is holding up.',
      'Our single-ply membrane was patched.',
      'They hung half-round gutters.',
      'The half-round gutters look right on an old house.',
    ]).map((t) => t.label);
    expect(labels).toEqual(expect.arrayContaining(['single-ply membrane', 'half-round gutters']));
  });

  test('a harm judged on many aspects, none by half its reviews, is no topic; a tie goes to the aspect it is the business of', () => {
    const texts = [
      // Hail: two reviews each on communication, timeliness and price; none holds half.
      'They called back after the hail.',
      'They called back about the hail.',
      'They were late after the hail.',
      'The hail job ran late.',
      'A fair price for the hail repair.',
      'Fair price on the hail work.',
      // Insurance: two on communication, two on the claim; the claim is what insurance is about.
      'They called back about the insurance.',
      'They called back about our insurance.',
      'In the end insurance paid for all of it.',
      'In a week insurance paid in full.',
      // The claim, in four other reviews: a topic of the same name.
      'The claim was approved in a week.',
      'Our claim was approved at last.',
      'My claim was approved without a fight.',
      'The second claim was approved too.',
      ...threePhrases,
    ];
    const lexicon = makeLexicon({
      insurance_claims: { positive: ['claim ~ approved', 'insurance ~ paid'] },
    });
    const reviews = [...texts, ...Array.from({ length: 8 }, () => 'Good work.')].map((text, i) =>
      makeReview({ id: `h-${i}`, text }),
    );
    const topics = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      reviews,
      editorial,
      lexicon,
      null,
    ).topics;
    // Not "hail updates", nor "insurance updates": a tie is the claim's.
    expect(topics.map((t) => t.label).join(' | ')).not.toMatch(/hail|updates/);
    // "claim" and "insurance" both name the insurance claim help: one topic, the first word's.
    const claims = topics.filter((t) => t.id === 'insurance-claim-help');
    expect(claims).toHaveLength(1);
    expect(claims[0]!.review_ids.toSorted()).toEqual(['h-10', 'h-11', 'h-12', 'h-13']);
  });

  test('a harm or errand is named with what its reviews judge, as a person would name it', () => {
    expect(themeLabel('leak', 'workmanship')).toBe('leak repair');
    expect(themeLabel('leak', 'estimate_inspection')).toBe('leak detection');
    expect(themeLabel('hail', 'workmanship')).toBe('hail damage repair');
    expect(themeLabel('monsoon', 'workmanship')).toBe('monsoon damage repair');
    expect(themeLabel('supplement', 'insurance_claims')).toBe('insurance claim help');
    expect(themeLabel('moss', 'workmanship')).toBe('moss removal');
    expect(themeLabel('nail', 'cleanup')).toBe('nail cleanup');
    expect(themeLabel('insurance', 'insurance_claims')).toBe('insurance claim help');
    expect(themeLabel('claim', 'insurance_claims')).toBe('insurance claim help');
    expect(themeLabel('hail', 'insurance_claims')).toBe('hail claim help');
    expect(themeLabel('warranty', 'warranty')).toBe('warranty');
    expect(themeLabel('permit', 'professionalism')).toBe('permit handling');
    expect(themeLabel('storm', 'timeliness')).toBe('storm scheduling');
  });

  test('a thing of the trade in phrases of most reviews opens no theme of its own', () => {
    const texts = [
      ...Array.from({ length: 4 }, () => 'The hail claim was approved.'),
      ...Array.from({ length: 3 }, () => 'The hail damage was bad.'),
      ...Array.from({ length: 3 }, () => 'They sent a hail report.'),
    ];
    // Ten reviews of hail among twelve: hail is what this business does, not one theme of it.
    const labels = labelsOf(texts, 2).map((t) => t.label);
    expect(labels).toEqual(expect.arrayContaining(['hail claim', 'hail damage', 'hail report']));
  });
});

describe('topics and the business name', () => {
  test("the name's words make topics where they are common words, not where they are the name", () => {
    const business = makeBusiness({ ...INSIGHTS_BUSINESS, name: 'Summit Ridge Metal Roofing' });
    const texts = [
      'Summit Ridge Metal Roofing replaced the ridge cap.',
      'The Summit Ridge crew fixed the ridge cap.',
      'We called Summit Ridge about a cracked ridge cap.',
      'Our new metal roof looks great.',
      'They put a metal roof on the garage.',
      'The metal roof kept the hail out.',
      'Good work.',
      'Good work.',
      'Good work.',
      'Good work.',
    ];
    const reviews = texts.map((text, i) => makeReview({ id: `n-${i}`, text }));
    const labels = buildInsights(business, reviews, editorial, makeLexicon(), null).topics.map(
      (t) => t.label,
    );
    expect(labels).toContain('ridge cap');
    expect(labels).toContain('metal roof');
    expect(labels.join(' ')).not.toMatch(/summit|ridge crew|ridge metal/);
  });
});

describe('summary', () => {
  test("keeps the owner's title and text and adds figures-based highlights and concerns", () => {
    const summary = build(makeReviews()).summary;
    expect(summary.title).toBe('What they say');
    expect(summary.text).toBe('Mostly good things.');
    expect(summary.highlights.map((h) => h.aspect)).toContain('price_value');
    expect(summary.concerns.map((c) => c.aspect)).toContain('timeliness');
    for (const item of [...summary.highlights, ...summary.concerns])
      expect(item.text).toContain(`of the ${item.review_count} reviews`);
  });

  test('a concern of one review says "1 of the N reviews … is negative"', () => {
    const texts = [
      'They were on time.',
      'On time, every day.',
      'They were late.',
      'They came on time.',
      'On time again.',
    ];
    const reviews = texts.map((text, i) => makeReview({ id: `c-${i}`, text }));
    const dataset = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      reviews,
      editorial,
      makeLexicon(),
      null,
    );
    const timeliness = dataset.summary.concerns.find((c) => c.aspect === 'timeliness')!;
    expect(timeliness.text).toMatch(
      /^Timeliness: 1 of the 5 reviews that speak of it is negative \(20%\)/,
    );
    const praise = dataset.summary.highlights.find((h) => h.aspect === 'timeliness')!;
    expect(praise.text).toMatch(/: 4 of the 5 reviews that speak of it are positive/);
  });

  test('without summary.md the title and text are null', () => {
    const dataset = buildInsights(
      makeBusiness(INSIGHTS_BUSINESS),
      makeReviews(),
      { faq: [], summary: null },
      makeLexicon(),
    );
    expect(dataset.summary).toMatchObject({ title: null, text: null });
  });
});

test('with neither a lexicon nor a model there are no aspects, and the rest is still there', () => {
  const dataset = buildInsights(
    makeBusiness(INSIGHTS_BUSINESS),
    makeReviews(),
    editorial,
    undefined,
    null,
  );
  expect(ASPECT_IDS.every((id) => dataset.aspects[id].review_count === 0)).toBe(true);
  expect(dataset.entities.technicians[0]!.mention_count).toBe(7);
  expect(dataset.faq).toEqual(editorial.faq);
});

test('by default the shipped model finds aspects, with no lexicon at all', () => {
  const reviews = [
    makeReview({
      id: 'late-and-messy',
      rating: 1,
      text: 'The crew showed up four hours late. They left nails all over the driveway.',
    }),
    makeReview({ id: 'fair', rating: 5, text: 'The price was fair and they stuck to the quote.' }),
  ];
  const dataset = buildInsights(makeBusiness(INSIGHTS_BUSINESS), reviews, editorial);
  expect(dataset.aspects.timeliness.negative).toBe(1);
  expect(dataset.aspects.cleanup.negative).toBe(1);
  expect(dataset.aspects.price_value.positive).toBe(1);
});

describe('topics for every size', () => {
  test('a business with 20 or 40 reviews gets at least three topics, each with ids and a rating', async () => {
    const { loadContent } = await import('../../content/load-content.ts');
    const content = await loadContent({
      contentDir: new URL('../../../content', import.meta.url).pathname,
      siteUrl: 'https://reviews.test',
    });
    for (const n of [20, 40]) {
      const reviews = content.reviews.slice(0, n);
      const insights = buildInsights(content.business, reviews, content.editorial, content.lexicon);
      expect(insights.topics.length, `${n} reviews`).toBeGreaterThanOrEqual(3);
      for (const topic of insights.topics) {
        expect(topic.review_ids.length).toBe(topic.review_count);
        expect(topic.review_count).toBeGreaterThanOrEqual(2);
        expect(topic.review_ids.every((id) => reviews.some((r) => r.id === id))).toBe(true);
        expect(topic.average_rating).not.toBeNull();
        expect(topic.label).toMatch(/^[a-z][a-z &'-]+$/);
        // A harm or an errand alone says nothing of the reviews ("snow" held "the first snow").
        expect(['leak', 'nail', 'snow', 'insurance', 'hail', 'storm']).not.toContain(topic.id);
      }
    }
  });
});
