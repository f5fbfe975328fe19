// The shipped aspect model (aspect-model.json, written by `npm run train:aspects`) and the word
// vectors it reads (word-vectors.{txt,bin}, written by `npm run vectors:aspects`), read and parsed
// once on first use. They are read from disk rather than imported: bundled into the build's pages,
// the 26 MB of JSON would cost every build more than a second. Run from source they sit beside this
// module; inside the build's bundle they are found from the project root, where every build runs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAspectModel, type AspectModel } from './aspect-model.ts';
import { parseWordVectors, type WordVectors } from './word-vectors.ts';

function modelFile(name: string): string {
  const candidates = [
    path.join(path.dirname(fileURLToPath(import.meta.url)), name),
    path.resolve('src/core/insights/model', name),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new Error(
      `the aspect model's ${name} is missing: looked for ${candidates.join(' and ')}; run the build from the project root, or npm run train:aspects`,
    );
  return found;
}

let vectors: WordVectors | undefined;
let model: AspectModel | undefined;

export function defaultWordVectors(): WordVectors {
  vectors ??= parseWordVectors(
    readFileSync(modelFile('word-vectors.txt'), 'utf8'),
    readFileSync(modelFile('word-vectors.bin')),
  );
  return vectors;
}

export function defaultAspectModel(): AspectModel {
  model ??= parseAspectModel(
    readFileSync(modelFile('aspect-model.json'), 'utf8'),
    defaultWordVectors(),
  );
  return model;
}
