// `npm run bench:insights [-- N]`: the build-time cost of the insights at N (default 10k) reviews,
// synthetic, recombined from the real content's and the dev set's sentences (seeded PRNG).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../../src/content/load-content.ts';
import { loadLexicon } from '../../src/content/load-lexicon.ts';
import { buildInsights } from '../../src/core/insights/dataset.ts';
import { splitSentences } from '../../src/core/insights/sentences.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
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
const N = Number(process.argv[2] ?? 10000);
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
const sentenceCount = reviews.reduce((n, r) => n + splitSentences(r.text).length, 0);
const t0 = performance.now();
const dataset = buildInsights(content.business, reviews, content.editorial, lexicon);
const ms = performance.now() - t0;
const bytes = JSON.stringify(dataset).length;
const mem = process.memoryUsage().rss / 2 ** 20;
console.log(
  `${N} reviews, ${sentenceCount} sentences: buildInsights ${(ms / 1000).toFixed(2)} s, ${Math.round(sentenceCount / (ms / 1000))} sentences/s end to end, insights.json ${(bytes / 1024).toFixed(0)} KiB, rss ${mem.toFixed(0)} MiB`,
);
console.log('topics:', dataset.topics.map((t) => `${t.label} (${t.review_count})`).join(', '));
