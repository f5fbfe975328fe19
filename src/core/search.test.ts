import { describe, expect, test } from 'vitest';
import { ValidationError } from './errors.ts';
import { createReviewIndex } from './review-index.ts';
import type { Business, Review } from './review.ts';
import {
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchResultSchema,
  parseSearchParams,
  parseSearchQuery,
  type SearchInput,
} from './search.ts';
import { makeBusiness, makeReview } from '../../test/support/builders.ts';

/** The services and crew the search filters are tested with (no service areas). */
const SEARCHED: Partial<Business> = {
  services: [
    { id: 'roof-repair', name: 'Roof Repair' },
    { id: 'gutters', name: 'Gutters' },
    { id: 'skylights', name: 'Skylights' },
  ],
  technicians: [
    { id: 'mike-alvarez', name: 'Mike Álvarez', aliases: ['Mikey', 'Big Mike'] },
    { id: 'sam-lee', name: 'Sam Lee' },
  ],
  service_areas: [],
};

function search(reviews: Review[], input: SearchInput) {
  return createReviewIndex(reviews, makeBusiness(SEARCHED)).search(parseSearchParams(input));
}
const ids = (result: { reviews: Review[] }) => result.reviews.map((review) => review.id);

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const query = (qs: string) => parseSearchQuery(new URLSearchParams(qs));

describe('filters', () => {
  const reviews = [
    makeReview({
      id: 'a',
      rating: 5,
      date: '2024-03-01',
      text: 'The leak is gone.',
      technicians: ['Mike Álvarez'],
      service_ids: ['roof-repair'],
    }),
    makeReview({
      id: 'b',
      rating: 4,
      date: '2024-02-01',
      text: 'New gutters, tidy crew.',
      technicians: ['Sam Lee'],
      service_ids: ['gutters'],
    }),
    makeReview({
      id: 'c',
      rating: 2,
      date: '2023-12-31',
      text: 'Leaking again after a week.',
      technicians: ['Mike Álvarez', 'Sam Lee'],
      service_ids: ['roof-repair', 'gutters'],
    }),
    makeReview({
      id: 'd',
      rating: 1,
      date: '2023-06-15',
      title: 'Never again',
      text: 'Nails everywhere.',
      technicians: [],
      service_ids: ['skylights'],
    }),
    makeReview({
      id: 'e',
      rating: 3,
      date: '2023-06-15',
      text: 'Crème brûlée CAFÉ roof.',
      technicians: ['Sam Lee'],
      service_ids: [],
    }),
  ];

  test('rating matches the exact star count', () => {
    expect(ids(search(reviews, { rating: 4 }))).toEqual(['b']);
  });
  test('min_rating is inclusive and accepts decimals', () => {
    expect(ids(search(reviews, { min_rating: 3 }))).toEqual(['a', 'b', 'e']);
    expect(ids(search(reviews, { min_rating: 3.5 }))).toEqual(['a', 'b']);
  });
  test('rating below min_rating matches nothing', () => {
    expect(search(reviews, { rating: 2, min_rating: 3 }).total).toBe(0);
  });
  test('since and until are inclusive', () => {
    expect(ids(search(reviews, { since: '2023-12-31' }))).toEqual(['a', 'b', 'c']);
    expect(ids(search(reviews, { until: '2023-12-31' }))).toEqual(['c', 'd', 'e']);
    expect(ids(search(reviews, { since: '2023-06-15', until: '2023-06-15' }))).toEqual(['d', 'e']);
    expect(ids(search(reviews, { since: '2025-01-01' }))).toEqual([]);
  });
  test('query is a case- and accent-insensitive substring of text and title', () => {
    expect(ids(search(reviews, { query: 'LEAK' }))).toEqual(['a', 'c']);
    expect(ids(search(reviews, { query: 'creme brulee cafe' }))).toEqual(['e']);
    expect(ids(search(reviews, { query: 'Crème' }))).toEqual(['e']);
    expect(ids(search(reviews, { query: 'never again' }))).toEqual(['d']);
    expect(ids(search(reviews, { query: 'ti' }))).toEqual(['b']);
    expect(ids(search(reviews, { query: 'zzz-not-there' }))).toEqual([]);
  });
  test('query folds letters that are not a letter with a mark as a reader types them', () => {
    const written = [
      makeReview({ id: 'pl', text: 'Ekipa z Łodzi, świetna robota.' }),
      makeReview({ id: 'de', text: 'Dach in der Hauptstraße, sehr gut.' }),
      makeReview({ id: 'no', text: 'Takrenner på Østre side, og ærlig pris.' }),
    ];
    const found = (query: string) => ids(search(written, { query }));
    expect(found('lodzi')).toEqual(['pl']);
    expect(found('ŁÓDZ')).toEqual(['pl']);
    expect(found('hauptstrasse')).toEqual(['de']);
    expect(found('STRASSE')).toEqual(['de']);
    expect(found('Straße')).toEqual(['de']);
    expect(found('ostre')).toEqual(['no']);
    expect(found('aerlig')).toEqual(['no']);
    expect(found('ærlig')).toEqual(['no']);
  });
  test('query reads curly apostrophes and quotation marks as the straight ones, either way', () => {
    const written = [
      makeReview({ id: 'curly', text: 'I\u2019d call them again, \u201cbest crew\u201d ever.' }),
      makeReview({ id: 'straight', text: `We wasn't sure, but I'd say "best crew" too.` }),
    ];
    const found = (query: string) => ids(search(written, { query }));
    expect(found("i'd")).toEqual(['curly', 'straight']);
    expect(found('I\u2019D')).toEqual(['curly', 'straight']);
    expect(found('wasn\u2018t')).toEqual(['straight']);
    expect(found('\u201cbest crew"')).toEqual(['curly', 'straight']);
  });
  test('query never spans the end of a title and the start of its text', () => {
    const titled = [makeReview({ id: 't', title: 'Quick', text: 'thorough job' })];
    const found = (query: string) => ids(search(titled, { query }));
    expect(found('quick')).toEqual(['t']);
    expect(found('thorough')).toEqual(['t']);
    expect(found('ck\nth')).toEqual([]);
    expect(found('quick thorough')).toEqual([]);
  });
  test('query needs the whole substring, not just its trigrams', () => {
    expect(ids(search(reviews, { query: 'gone leak' }))).toEqual([]);
  });
  test('mentions_technician takes the name, id or an alias in any case and accent', () => {
    for (const name of [
      'Mike Álvarez',
      'mike alvarez',
      'mike-alvarez',
      'MIKEY',
      'big mike',
      ' Mikey ',
    ]) {
      expect(ids(search(reviews, { mentions_technician: name })), name).toEqual(['a', 'c']);
    }
    expect(ids(search(reviews, { mentions_technician: 'sam lee' }))).toEqual(['b', 'c', 'e']);
  });
  test('an unknown technician matches nothing (200, not an error)', () => {
    expect(search(reviews, { mentions_technician: 'Nobody' })).toMatchObject({
      total: 0,
      count: 0,
      reviews: [],
    });
  });
  test('mentions_service matches service ids', () => {
    expect(ids(search(reviews, { mentions_service: 'gutters' }))).toEqual(['b', 'c']);
  });
  test('an unknown service id is a validation error naming the known ids', () => {
    const issues = issuesOf(() => search(reviews, { mentions_service: 'chimneys' }));
    expect(issues).toEqual([
      expect.objectContaining({
        path: ['mentions_service'],
        message: expect.stringContaining('roof-repair, gutters, skylights'),
      }),
    ]);
  });
  test('a known service that no review mentions gives an empty result', () => {
    expect(search([reviews[0]!], { mentions_service: 'skylights' }).total).toBe(0);
  });
  test('filters AND-combine', () => {
    expect(
      ids(
        search(reviews, {
          mentions_technician: 'sam-lee',
          mentions_service: 'gutters',
          query: 'leak',
        }),
      ),
    ).toEqual(['c']);
    expect(
      ids(search(reviews, { min_rating: 2, until: '2024-01-31', mentions_technician: 'Mikey' })),
    ).toEqual(['c']);
    expect(
      ids(
        search(reviews, {
          rating: 5,
          query: 'leak',
          since: '2024-01-01',
          mentions_service: 'roof-repair',
        }),
      ),
    ).toEqual(['a']);
    expect(ids(search(reviews, { rating: 4, query: 'leak' }))).toEqual([]);
  });
  test('no filters returns everything newest first, date desc then id asc', () => {
    expect(ids(search(reviews, {}))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids(search([...reviews].reverse(), {}))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('limit, total and count', () => {
  const many = Array.from({ length: 150 }, (_, i) =>
    makeReview({
      id: `r-${String(i).padStart(3, '0')}`,
      date: `2020-01-${String((i % 28) + 1).padStart(2, '0')}`,
      rating: (i % 5) + 1,
    }),
  );

  test(`limit defaults to ${SEARCH_LIMIT_DEFAULT}`, () => {
    const result = search(many, {});
    expect(result).toMatchObject({
      total: 150,
      count: SEARCH_LIMIT_DEFAULT,
      limit: SEARCH_LIMIT_DEFAULT,
    });
  });
  test('total counts every match while count stops at limit', () => {
    const result = search(many, { rating: 5, limit: 7 });
    expect(result).toMatchObject({ total: 30, count: 7, limit: 7 });
    const withFilter = search(many, { min_rating: 4, limit: 5 });
    expect(withFilter).toMatchObject({ total: 60, count: 5 });
  });
  test(`limit accepts 1 and ${SEARCH_LIMIT_MAX}`, () => {
    expect(search(many, { limit: 1 }).count).toBe(1);
    expect(search(many, { limit: SEARCH_LIMIT_MAX }).count).toBe(SEARCH_LIMIT_MAX);
  });
  test('results are sorted newest first whatever filter drives the search', () => {
    for (const input of [
      { limit: 100 },
      { rating: 3, limit: 100 },
      { min_rating: 2, limit: 100 },
    ]) {
      const dates = search(many, input).reviews.map((review) => `${review.date}|${review.id}`);
      const sorted = [...dates].sort((x, y) =>
        x.slice(0, 10) === y.slice(0, 10) ? (x < y ? -1 : 1) : x < y ? 1 : -1,
      );
      expect(dates).toEqual(sorted);
    }
  });
  test("searchBody is the same result as search, from the records' bytes", () => {
    const index = createReviewIndex(many, makeBusiness(SEARCHED));
    const params = parseSearchParams({ min_rating: 3, limit: 4 });
    const parsed = SearchResultSchema.parse(JSON.parse(index.searchBody(params).toString('utf8')));
    expect(parsed).toEqual(index.search(params));
  });
});

describe('query over many reviews', () => {
  // Words in most reviews are answered from the review sets prepared for frequent substrings.
  const many = Array.from({ length: 1000 }, (_, i) =>
    makeReview({
      id: `m-${String(i).padStart(4, '0')}`,
      date: '2022-01-01',
      text:
        i % 10 === 0
          ? `The roof was leaking near the chimney, case ${i}.`
          : `The roof looks great, case ${i}.`,
    }),
  );
  test('common and rare words both match exactly', () => {
    const index = createReviewIndex(many, makeBusiness(), { frequentMinSuffixes: 50 });
    expect(index.search(parseSearchParams({ query: 'the roof', limit: 1 })).total).toBe(1000);
    expect(index.search(parseSearchParams({ query: 'leaking', limit: 1 })).total).toBe(100);
    expect(search(many, { query: 'the roof', limit: 1 }).total).toBe(1000);
    expect(search(many, { query: 'leaking', limit: 1 }).total).toBe(100);
    expect(search(many, { query: 'case 999.', limit: 5 }).reviews.map((r) => r.id)).toEqual([
      'm-0999',
    ]);
    expect(search(many, { query: 'chimney, case 990', limit: 5 }).reviews.map((r) => r.id)).toEqual(
      ['m-0990'],
    );
    expect(search(many, { query: 'looks great, case 990', limit: 5 }).total).toBe(0);
  });
});

describe('every mix of filters', () => {
  // Random reviews and random searches, answered by the index (with a threshold low enough that
  // common needles come from the prepared sets) and by a plain scan; they must agree exactly.
  let state = 17;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const words = ['roof', 'leak', 'Gutter', 'crew', 'Núñez', 'fast', 'ok', 'tile', 'a', 'é'];
  const dates = ['2021-03-04', '2022-07-01', '2022-07-02', '2023-12-31', '2024-05-05'];
  const business = makeBusiness();
  const reviews = Array.from({ length: 400 }, (_, i) =>
    makeReview({
      id: `r-${String(i).padStart(3, '0')}`,
      date: pick(dates),
      rating: 1 + Math.floor(next() * 5),
      title: next() < 0.3 ? `${pick(words)} ${pick(words)}` : null,
      text: Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(words)).join(' '),
      technicians: next() < 0.4 ? [pick(business.technicians).name] : [],
      service_ids: next() < 0.5 ? [pick(business.services).id] : [],
    }),
  );
  const fold = (value: string) =>
    value
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const sorted = [...reviews].sort((a, b) =>
    a.date !== b.date ? (a.date > b.date ? -1 : 1) : a.id < b.id ? -1 : 1,
  );
  const index = createReviewIndex(reviews, business, { frequentMinSuffixes: 8 });

  test('the index agrees with a plain scan on 500 random searches', () => {
    for (let round = 0; round < 500; round += 1) {
      const input: SearchInput = { limit: 1 + Math.floor(next() * 30) };
      if (next() < 0.3) input.rating = 1 + Math.floor(next() * 5);
      if (next() < 0.3) input.min_rating = 1 + Math.floor(next() * 8) / 2;
      if (next() < 0.3) input.since = pick(dates);
      if (next() < 0.3) input.until = pick(dates);
      if (input.since && input.until && input.since > input.until) delete input.until;
      if (next() < 0.6) {
        const word = pick(words);
        const from = Math.floor(next() * word.length);
        input.query =
          next() < 0.5
            ? word.slice(from, from + 1 + Math.floor(next() * 3))
            : `${word} ${pick(words)}`;
      }
      if (next() < 0.2)
        input.mentions_technician = pick(['mikey', 'SAM LEE', 'mike-alvarez', 'nobody']);
      if (next() < 0.2) input.mentions_service = pick(business.services).id;
      const params = parseSearchParams(input);
      const technician = business.technicians.find((t) =>
        [t.id, t.name, ...(t.aliases ?? [])].some(
          (name) => fold(name) === fold(params.mentions_technician ?? ''),
        ),
      );
      const expected = sorted.filter(
        (review) =>
          (params.rating === undefined || review.rating === params.rating) &&
          (params.min_rating === undefined || review.rating >= params.min_rating) &&
          (params.since === undefined || review.date >= params.since) &&
          (params.until === undefined || review.date <= params.until) &&
          (params.mentions_technician === undefined ||
            (technician !== undefined && review.technicians.includes(technician.name))) &&
          (params.mentions_service === undefined ||
            review.service_ids.includes(params.mentions_service)) &&
          (params.query === undefined ||
            fold(review.title ? `${review.title}\n${review.text}` : review.text).includes(
              fold(params.query),
            )),
      );
      const result = index.search(params);
      expect({ total: result.total, ids: ids(result) }, JSON.stringify(params)).toEqual({
        total: expected.length,
        ids: expected.slice(0, params.limit).map((review) => review.id),
      });
    }
  });
});

describe('parameter validation', () => {
  test.each([
    ['rating=0', 'rating', 'too_small'],
    ['rating=6', 'rating', 'too_big'],
    ['rating=4.5', 'rating', 'invalid_type'],
    ['rating=five', 'rating', 'invalid_type'],
    ['rating=', 'rating', 'invalid_type'],
    ['rating=5abc', 'rating', 'invalid_type'],
    ['min_rating=0.5', 'min_rating', 'too_small'],
    ['min_rating=5.5', 'min_rating', 'too_big'],
    ['limit=0', 'limit', 'too_small'],
    ['limit=101', 'limit', 'too_big'],
    ['limit=1e2', 'limit', 'invalid_type'],
    ['since=2023-02-30', 'since', 'custom'],
    ['since=yesterday', 'since', 'invalid_format'],
    ['until=2024-13-01', 'until', 'custom'],
    ['query=', 'query', 'too_small'],
    ['query=%CC%88', 'query', 'custom'],
    ['query=%EF%B8%8F', 'query', 'custom'],
    [`query=${'x'.repeat(201)}`, 'query', 'too_big'],
    ['mentions_technician=', 'mentions_technician', 'too_small'],
    ['since=2024-02-01&until=2024-01-01', 'since', 'custom'],
    ['colour=red', 'colour', 'unrecognized_keys'],
    ['limit=5&limit=6', 'limit', 'repeated_parameter'],
  ])('returns an issue for %s', (qs, path, code) => {
    const issues = issuesOf(() => query(qs));
    expect(issues).toContainEqual(expect.objectContaining({ path: [path], code }));
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
  });

  test('an unknown parameter names the known ones', () => {
    const [issue] = issuesOf(() => query('q=leak'));
    expect(issue?.message).toContain('query');
    expect(issue?.message).toContain('mentions_technician');
  });

  test('numbers in the query string become numbers; limit defaults', () => {
    expect(query('rating=5&min_rating=3.5&since=2024-01-01')).toEqual({
      rating: 5,
      min_rating: 3.5,
      since: '2024-01-01',
      limit: 20,
    });
  });

  test.each(['query', 'mentions_technician', 'mentions_service'])(
    '%s of spaces alone is refused as blank, not read as a search for spaces',
    (name) => {
      for (const blank of [' ', '%20%20', '%C2%A0', '%09'])
        expect(issuesOf(() => query(`${name}=${blank}`))).toContainEqual(
          expect.objectContaining({ path: [name], message: 'must not be blank' }),
        );
      expect(query(`${name}=%20a%20`)).toMatchObject({ [name]: ' a ' });
    },
  );

  test('typed params (MCP) reject strings where numbers are expected', () => {
    expect(issuesOf(() => parseSearchParams({ rating: '5' }))).toContainEqual(
      expect.objectContaining({ path: ['rating'], code: 'invalid_type' }),
    );
  });
});

describe('since', () => {
  const reviews = [
    makeReview({ id: 'new', date: '2024-05-01' }),
    makeReview({ id: 'mid', date: '2024-04-01' }),
    makeReview({ id: 'old', date: '2023-01-01' }),
  ];
  const index = createReviewIndex(reviews, makeBusiness(SEARCHED));

  test('returns reviews on or after the date, newest first', () => {
    expect(index.since('2024-04-01')).toMatchObject({ since: '2024-04-01', count: 2 });
    expect(index.since('2024-04-01').reviews.map((review) => review.id)).toEqual(['new', 'mid']);
    expect(index.since('2030-01-01').count).toBe(0);
    expect(index.since('1999-01-01').count).toBe(3);
  });
  test('sinceBody matches since', () => {
    expect(JSON.parse(index.sinceBody('2024-04-02').toString('utf8'))).toEqual(
      index.since('2024-04-02'),
    );
  });
  test.each(['2024-02-30', '2024-4-01', 'today', ''])(
    'rejects %j with an issue at date',
    (date) => {
      expect(issuesOf(() => index.since(date))).toContainEqual(
        expect.objectContaining({ path: ['date'] }),
      );
    },
  );
});

test('getReview finds a review by id', () => {
  const index = createReviewIndex([makeReview({ id: 'x1' })], makeBusiness(SEARCHED));
  expect(index.getReview('x1')?.id).toBe('x1');
  expect(index.getReview('nope')).toBeUndefined();
});

describe('hostile query strings', () => {
  test.each(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'])(
    '%s is an unknown parameter like any other',
    (name) => {
      expect(() => query(`${name}=x`)).toThrow(ValidationError);
      try {
        query(`rating=5&${name}=1`);
      } catch (error) {
        expect((error as ValidationError).issues).toEqual([
          expect.objectContaining({ path: [name], code: 'unrecognized_keys' }),
        ]);
      }
    },
  );

  test('thousands of unknown parameters are refused with one issue, before any parsing', () => {
    const junk = Array.from({ length: 3900 }, (_, i) => `p${i}=1`).join('&');
    let issues: unknown[] = [];
    try {
      query(junk);
    } catch (error) {
      issues = (error as ValidationError).issues;
    }
    expect(issues).toEqual([expect.objectContaining({ code: 'too_many_parameters' })]);
  });
});
