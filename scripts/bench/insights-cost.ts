// `npm run bench:insights [-- N]`: the build-time cost of the insights at N (default 10k) reviews,
// synthetic, recombined from the real content's and the dev set's sentences (seeded PRNG). Each
// run is a fresh process, so the model's loading is included as a build meets it: first on one
// thread (the baseline), then on the machine's cores as the build runs it, with the ratio of the
// two and whether both wrote the same bytes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadContent } from '../../src/content/load-content.ts';
import { loadLexicon } from '../../src/content/load-lexicon.ts';
import { buildInsightsInParallel } from '../../src/core/insights/dataset.ts';
import { DEFAULT_MAX_THREADS } from '../../src/core/insights/parallel-analysis.ts';
import { splitSentences } from '../../src/core/insights/sentences.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { threads: { type: 'string' } },
});
const N = Number(positionals[0] ?? 10000);
if (!Number.isInteger(N) || N < 1)
  throw new Error(`N must be a whole number of reviews, got ${positionals[0]}`);

interface Run {
  threads: number;
  seconds: number;
  sentences: number;
  bytes: number;
  sha256: string;
  rssMiB: number;
  topics: string;
}

/** One timed run in this process (the child's part). */
async function timedRun(threads: number): Promise<Run> {
  const content = await loadContent({
    contentDir: path.join(root, 'content'),
    siteUrl: 'http://localhost:4321',
  });
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const pool = [
    ...content.reviews.flatMap((r) => splitSentences(r.text).map((s) => s.text)),
    ...readFileSync(path.join(root, 'test', 'fixtures', 'absa-own.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).text as string),
  ];
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const base = content.reviews[0]!;
  const reviews = Array.from({ length: N }, (_, i) => {
    const sentences = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => pick(pool));
    const year = 2016 + Math.floor(rand() * 11);
    const date = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    return {
      ...base,
      id: `synthetic-${String(i).padStart(5, '0')}`,
      rating: 1 + Math.floor(rand() * 5),
      date,
      updated: date,
      text: sentences.join(' '),
      technicians: [pick(content.business.technicians).name],
      service_ids: [pick(content.business.services).id],
      service_area_id: pick(content.business.service_areas).id,
    };
  });
  const sentences = reviews.reduce((n, r) => n + splitSentences(r.text).length, 0);
  const t0 = performance.now();
  const dataset = await buildInsightsInParallel(
    content.business,
    reviews,
    content.editorial,
    lexicon,
    { threads },
  );
  const seconds = (performance.now() - t0) / 1000;
  const json = JSON.stringify(dataset);
  return {
    threads,
    seconds,
    sentences,
    bytes: Buffer.byteLength(json),
    sha256: createHash('sha256').update(json).digest('hex'),
    rssMiB: process.memoryUsage().rss / 2 ** 20,
    topics: dataset.topics.map((t) => `${t.label} (${t.review_count})`).join(', '),
  };
}

if (values.threads !== undefined) {
  console.log(JSON.stringify(await timedRun(Number(values.threads))));
} else {
  const runs = [1, Math.min(availableParallelism(), DEFAULT_MAX_THREADS)].map((threads): Run => {
    const child = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), String(N), `--threads=${threads}`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.status !== 0) throw new Error(`the run on ${threads} thread(s) failed`);
    return JSON.parse(child.stdout) as Run;
  });
  for (const run of runs)
    console.log(
      `${N} reviews, ${run.sentences} sentences, ${run.threads} thread(s): buildInsights ${run.seconds.toFixed(2)} s (model loading included), ${Math.round(run.sentences / run.seconds)} sentences/s, insights.json ${(run.bytes / 1024).toFixed(0)} KiB, rss ${run.rssMiB.toFixed(0)} MiB`,
    );
  const [one, many] = runs as [Run, Run];
  console.log(
    `${many.threads} threads against 1: ${(one.seconds / many.seconds).toFixed(2)}x as fast; same bytes: ${one.sha256 === many.sha256 ? 'yes' : 'NO'}`,
  );
  console.log('topics:', one.topics);
  if (one.sha256 !== many.sha256) process.exitCode = 1;
}
