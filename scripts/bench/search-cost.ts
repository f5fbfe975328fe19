// The slowest single searches we can construct, timed inside one process on a built site: every
// one-letter and the commonest two-letter queries, the commonest words, a 200-character query,
// every filter at once. Each search runs 25 times with different limits on an index opened without
// its caches, so every run is computed afresh; its slowest and median times are reported. Used by distinct.ts; on its own,
//   node scripts/bench/search-cost.ts <dist dir> [review-index module]
// times another version of the index (say, a checkout of an older commit) on the same build.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readSearchFiles } from '../../src/build/search-files.ts';
import type { IndexOptions, IndexSource, ReviewIndex } from '../../src/core/review-index.ts';
import type { SearchParams } from '../../src/core/search.ts';

export interface SlowSearch {
  label: string;
  maxMs: number;
  medianMs: number;
  total: number;
}

const RUNS = 25;

function commonest(texts: readonly string[], pattern: RegExp, count: number): string[] {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const found of new Set(text.match(pattern) ?? []))
      counts.set(found, (counts.get(found) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([value]) => value);
}

export async function measureSlowest(
  distDir: string,
  log: (message: string) => void = () => {},
  indexModule?: string,
): Promise<SlowSearch[]> {
  const files = await readSearchFiles(distDir);
  const reviewsJson = await readFile(path.join(distDir, 'client', 'reviews.json'));
  const module = (await import(
    indexModule ? pathToFileURL(path.resolve(indexModule)).href : '../../src/core/review-index.ts'
  )) as { openReviewIndex: (source: IndexSource, options?: IndexOptions) => ReviewIndex };
  const opened = performance.now();
  // Without the index's caches, so each timing is a search computed afresh.
  const index = module.openReviewIndex({ reviewsJson, ...files }, { caches: false });
  log(`search-cost: index opened in ${(performance.now() - opened).toFixed(0)} ms`);
  const { columns } = files;
  const texts: string[] = [];
  const offsets = columns.folded_offsets;
  const step = Math.max(1, Math.floor(columns.ids.length / 3000));
  for (let k = 0; k < columns.ids.length; k += step)
    texts.push(files.folded.subarray(offsets[k]!, offsets[k + 1]! - 1).toString('utf8'));
  const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789 .,'];
  const bigrams = commonest(texts, /[a-z ]{2}/g, 15);
  const words = commonest(texts, /[a-z]+/g, 15);
  const technician = columns.business.technicians[0];
  const service = columns.business.services[0];
  const dates = [...columns.dates].sort();
  const long = texts.find((text) => text.length >= 260)?.slice(50, 250) ?? 'roof '.repeat(40);
  const everything = (query: string): Partial<SearchParams> => ({
    rating: 5,
    min_rating: 4,
    since: dates[0],
    until: dates.at(-1),
    query,
    ...(technician ? { mentions_technician: technician.name } : {}),
    ...(service ? { mentions_service: service.id } : {}),
  });
  const candidates: [string, Partial<SearchParams>][] = [
    ...letters.map((letter): [string, Partial<SearchParams>] => [
      `query=${JSON.stringify(letter)}`,
      { query: letter },
    ]),
    ...bigrams.map((pair): [string, Partial<SearchParams>] => [
      `query=${JSON.stringify(pair)}`,
      { query: pair },
    ]),
    ...words.map((word): [string, Partial<SearchParams>] => [
      `query=${JSON.stringify(word)}`,
      { query: word },
    ]),
    ['query=<200 characters of a review>', { query: long }],
    ['query=<200 × "e">', { query: 'e'.repeat(200) }],
    ['query="zzqxj" (no match)', { query: 'zzqxj' }],
    ['every filter, query="e"', everything('e')],
    [`every filter, query=${JSON.stringify(words[0] ?? 'the')}`, everything(words[0] ?? 'the')],
    ['min_rating=1, whole date range', { min_rating: 1, since: dates[0], until: dates.at(-1) }],
    ['min_rating=2, query="e"', { min_rating: 2, query: 'e' }],
  ];
  const labels = new Set<string>();
  const unique = candidates.filter(([label]) => !labels.has(label) && labels.add(label));
  // One untimed pass first, so the timings are of compiled code.
  for (const [, params] of unique) index.searchBody({ ...params, limit: 1 } as SearchParams);
  const measured: SlowSearch[] = [];
  for (const [label, params] of unique) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const search = { ...params, limit: 100 - run } as SearchParams;
      const began = performance.now();
      const body = index.searchBody(search);
      times.push(performance.now() - began);
      total = Number(/"total":(\d+)/.exec(body.toString('latin1', 0, 40))?.[1] ?? 0);
    }
    times.sort((a, b) => a - b);
    measured.push({ label, maxMs: times.at(-1)!, medianMs: times[RUNS >> 1]!, total });
  }
  measured.sort((a, b) => b.medianMs - a.medianMs);
  log(
    `search-cost: slowest medians: ${measured
      .slice(0, 5)
      .map(
        (search) =>
          `${search.label} ${search.medianMs.toFixed(2)} ms (max ${search.maxMs.toFixed(2)}, total ${search.total})`,
      )
      .join('; ')}`,
  );
  return measured;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [distDir, indexModule] = process.argv.slice(2);
  if (!distDir)
    throw new Error('usage: node scripts/bench/search-cost.ts <dist dir> [index module]');
  const measured = await measureSlowest(distDir, (message) => console.error(message), indexModule);
  console.log('| search | total | median | slowest of 25 |\n|---|---:|---:|---:|');
  for (const search of measured)
    console.log(
      `| ${search.label} | ${search.total} | ${search.medianMs.toFixed(3)} ms | ${search.maxMs.toFixed(3)} ms |`,
    );
}
