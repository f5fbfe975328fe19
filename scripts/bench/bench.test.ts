// The benchmark's own logic: the generator is deterministic and within its stated shape, and the
// oracle that checks every answer filters and orders as the README says. Nothing here is timed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchConfig } from './config.ts';
import { root, SERVER_NODE_FLAGS } from './proc.ts';
import { createRandom } from './prng.ts';
import { MIX_KINDS, searchMix } from './search-mix.ts';
import {
  END_DATE,
  checkPools,
  generateReview,
  generateReviews,
  renderReview,
  type BenchBusiness,
} from './generate.ts';
import {
  expectedSearch,
  expectedSince,
  fold,
  technicianName,
  type OracleReview,
} from './oracle.ts';

const business = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../content/business.json'), 'utf8'),
) as BenchBusiness;

describe('prng', () => {
  it('repeats for a seed and differs between seeds', () => {
    const a = createRandom('x');
    const b = createRandom('x');
    const c = createRandom('y');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const value of seqA) expect(value >= 0 && value < 1).toBe(true);
  });
});

describe('generator', () => {
  it('gives the same files for the same seed, other files for another seed', () => {
    const first = generateReviews(business, 200, 'seed-a').map(renderReview);
    const again = generateReviews(business, 200, 'seed-a').map(renderReview);
    const other = generateReviews(business, 200, 'seed-b').map(renderReview);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('makes a smaller set a prefix of a larger one', () => {
    const small = generateReviews(business, 50, 'seed-a');
    expect(generateReviews(business, 120, 'seed-a').slice(0, 50)).toEqual(small);
    expect(generateReview(business, 'seed-a', 49)).toEqual(small[49]);
  });

  it('has unique kebab-case ids, valid ids of business.json and the stated shape', () => {
    checkPools();
    const reviews = generateReviews(business, 4000);
    const technicians = new Set(business.technicians.map((t) => t.id));
    const services = new Set(business.services.map((s) => s.id));
    const areas = new Set(business.service_areas.map((a) => a.id));
    expect(new Set(reviews.map((r) => r.id)).size).toBe(reviews.length);
    for (const review of reviews) {
      expect(review.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(review.date >= '2018-11-16' && review.date <= END_DATE).toBe(true);
      expect(review.technicians.every((id) => technicians.has(id))).toBe(true);
      expect(review.services.every((id) => services.has(id))).toBe(true);
      expect(areas.has(review.service_area)).toBe(true);
      if (review.reply) expect(review.reply.date >= review.date).toBe(true);
    }
    const share = (predicate: (r: (typeof reviews)[number]) => boolean) =>
      reviews.filter(predicate).length / reviews.length;
    expect(share((r) => /leak/i.test(`${r.title ?? ''} ${r.text}`))).toBeGreaterThan(0.035);
    expect(share((r) => /leak/i.test(`${r.title ?? ''} ${r.text}`))).toBeLessThan(0.065);
    expect(share((r) => r.rating >= 4)).toBeGreaterThan(0.75);
    expect(share((r) => r.reply !== null)).toBeGreaterThan(0.15);
    expect(share((r) => r.technicians.length > 0)).toBeGreaterThan(0.6);
    // A title mentions "leak" only when the text does (json-server's text_like relies on it).
    for (const review of reviews)
      if (/leak/i.test(review.title ?? '')) expect(review.text).toMatch(/leak/i);
  });

  it('renders front matter the content loader accepts', () => {
    const text = renderReview(generateReview(business, 'seed-a', 3));
    expect(text.startsWith('---\nrating: ')).toBe(true);
    expect(text).toMatch(/\nverification: \w+\n/);
    expect(text).toMatch(/\ntechnicians: \[[a-z, -]*\]\n/);
  });
});

describe('oracle', () => {
  const technicians = [
    { id: 'tomas-reyes', name: 'Tomás Reyes', aliases: ['Tommy'] },
    { id: 'marcus-bell', name: 'Marcus Bell', aliases: ['Marc'] },
  ];
  const review = (
    id: string,
    date: string,
    rating: number,
    text: string,
    names: string[] = [],
    title: string | null = null,
  ): OracleReview => ({ id, date, rating, text, title, technicians: names });
  const reviews = [
    review('b', '2025-01-01', 5, 'Fixed the LEAK fast', ['Marcus Bell']),
    review('a', '2025-01-01', 4, 'Great roof', ['Tomás Reyes'], 'No more leaks'),
    review('c', '2024-06-01', 2, 'Slow office', ['Tomás Reyes', 'Marcus Bell']),
    review('d', '2025-03-01', 5, 'Crème de la crème', []),
  ];

  it('folds case and accents', () => {
    expect(fold('Tomás CRÈME')).toBe('tomas creme');
    expect(technicianName(technicians, ' tomas reyes ')).toBe('Tomás Reyes');
    expect(technicianName(technicians, 'MARC')).toBe('Marcus Bell');
    expect(technicianName(technicians, 'tomas-reyes')).toBe('Tomás Reyes');
    expect(technicianName(technicians, 'nobody')).toBeUndefined();
  });

  it('orders newest first, then by id, and counts beyond the limit', () => {
    expect(expectedSearch(reviews, technicians, { limit: 2 })).toEqual({
      total: 4,
      ids: ['d', 'a'],
    });
  });

  it('AND-combines the filters', () => {
    expect(expectedSearch(reviews, technicians, { rating: 5, limit: 10 }).ids).toEqual(['d', 'b']);
    expect(expectedSearch(reviews, technicians, { query: 'leak', limit: 10 }).ids).toEqual([
      'a',
      'b',
    ]);
    expect(expectedSearch(reviews, technicians, { query: 'creme', limit: 10 }).ids).toEqual(['d']);
    expect(
      expectedSearch(reviews, technicians, {
        min_rating: 4,
        since: '2025-01-01',
        mentions_technician: 'Tommy',
        limit: 10,
      }),
    ).toEqual({ total: 1, ids: ['a'] });
    expect(
      expectedSearch(reviews, technicians, { mentions_technician: 'marc', limit: 10 }).ids,
    ).toEqual(['b', 'c']);
    expect(
      expectedSearch(reviews, technicians, { mentions_technician: 'nobody', limit: 10 }).total,
    ).toBe(0);
    expect(expectedSearch(reviews, technicians, { until: '2024-12-31', limit: 10 }).ids).toEqual([
      'c',
    ]);
  });

  it('answers since with every review on or after the date', () => {
    expect(expectedSince(reviews, '2025-01-01')).toEqual({ total: 3, ids: ['d', 'a', 'b'] });
  });
});

describe('benchmark settings', () => {
  it('defaults every setting', () => {
    const config = parseBenchConfig({});
    expect(config.BENCH_SIZES).toEqual([1000, 10_000, 100_000]);
    expect(config.BENCH_DISTINCT_URLS).toBe(20_000);
    expect(config.BENCH_REUSE_BUILD).toBe(false);
  });

  it('reads sizes, numbers, flags and lists', () => {
    const config = parseBenchConfig({
      BENCH_SIZES: '500, 2000',
      BENCH_DURATION: '2.5',
      BENCH_REUSE_BUILD: 'yes',
      BENCH_SCENARIOS: 'Leak,MCP',
    });
    expect(config.BENCH_SIZES).toEqual([500, 2000]);
    expect(config.BENCH_DURATION).toBe(2.5);
    expect(config.BENCH_REUSE_BUILD).toBe(true);
    expect(config.BENCH_SCENARIOS).toEqual(['leak', 'mcp']);
  });

  it.each([
    ['BENCH_SIZES', '10k'],
    ['BENCH_DURATION', '-1'],
    ['BENCH_CONNECTIONS', '1.5'],
    ['BENCH_REUSE_BUILD', 'maybe'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => parseBenchConfig({ [name]: value })).toThrow(name);
  });

  it('refuses an unknown BENCH_ variable, naming the known ones', () => {
    expect(() => parseBenchConfig({ BENCH_DURATON: '5' })).toThrow(
      /BENCH_DURATON.*BENCH_DURATION/s,
    );
  });
});

describe('distinct search mix', () => {
  const reviews: OracleReview[] = Array.from({ length: 300 }, (_, k) => ({
    id: `r${k}`,
    rating: 1 + (k % 5),
    date: `2024-0${1 + (k % 9)}-1${k % 10}`,
    title: k % 3 === 0 ? 'Great roof' : null,
    text: `Crew ${k % 7} fixed the leak ${k % 11 === 0 ? 'and the gutters' : 'fast'}, word${k}.`,
    technicians: k % 4 === 0 ? ['Sam Lee'] : [],
    service_ids: k % 2 === 0 ? ['roof-repair'] : [],
  }));
  const options = {
    reviews,
    technicians: [{ id: 'sam-lee', name: 'Sam Lee', aliases: ['Sammy'] }],
    services: ['roof-repair', 'gutters'],
    count: 2000,
    seed: 'mix-test',
  };

  it('draws distinct URLs of every kind, the same for the same seed', () => {
    const mix = searchMix(options);
    expect(new Set(mix.map((search) => search.path)).size).toBe(2000);
    expect(new Set(mix.map((search) => search.kind))).toEqual(new Set(MIX_KINDS));
    expect(mix.every((search) => search.query.limit >= 1 && search.query.limit <= 100)).toBe(true);
    expect(searchMix(options).map((search) => search.path)).toEqual(
      mix.map((search) => search.path),
    );
  });

  it('draws query words across the frequency range, common and rare', () => {
    const words = searchMix(options)
      .filter((search) => search.kind === 'word')
      .map((search) => search.query.query!);
    expect(words).toContain('the');
    expect(words.some((word) => /^word\d+$/.test(word))).toBe(true);
  });
});

describe('server flags', () => {
  it('are the ones npm start and npm run serve give the server, so benchmarks measure what runs', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const flags = SERVER_NODE_FLAGS.join(' ');
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(scripts['start']).toBe(`node ${flags} scripts/start.ts`);
    expect(scripts['serve']).toBe(`node ${flags} src/server.ts`);
  });
});
