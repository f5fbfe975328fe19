// The shipped aspect model (aspect-model.json, written by `npm run train:aspects`), read and parsed
// once on first use. It is read from disk rather than imported: bundled into the build's pages, the
// 12 MB of JSON would cost every build more than a second. Run from source it sits beside this
// module; inside the build's bundle it is found from the project root, where every build runs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAspectModel, type AspectModel } from './aspect-model.ts';

const FILE = 'aspect-model.json';

function modelFile(): string {
  const candidates = [
    path.join(path.dirname(fileURLToPath(import.meta.url)), FILE),
    path.resolve('src/core/insights/model', FILE),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new Error(
      `the aspect model is missing: looked for ${candidates.join(' and ')}; run the build from the project root, or npm run train:aspects`,
    );
  return found;
}

let model: AspectModel | undefined;

export function defaultAspectModel(): AspectModel {
  model ??= parseAspectModel(readFileSync(modelFile(), 'utf8'));
  return model;
}
