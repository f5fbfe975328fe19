// `npm run coverage:aspects`: validates every line of the aspect training corpus
// (training/aspects/corpus/*.jsonl) and writes its coverage table to training/aspects/COVERAGE.md.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCorpusFile, renderCoverage } from '../src/core/insights/corpus.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'training/aspects/corpus');
const sentences = [];
for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
  sentences.push(
    ...parseCorpusFile(
      `training/aspects/corpus/${name}`,
      await readFile(path.join(dir, name), 'utf8'),
    ),
  );
const ids = new Set<string>();
for (const sentence of sentences) {
  if (ids.has(sentence.id)) throw new Error(`duplicate id ${sentence.id}`);
  ids.add(sentence.id);
}
await writeFile(path.join(root, 'training/aspects/COVERAGE.md'), renderCoverage(sentences));
console.log(`${sentences.length} sentences; training/aspects/COVERAGE.md written`);
