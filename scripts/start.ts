// `npm start`: build when the built site is missing or older than the content or the code, then serve.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../src/build/manifest.ts';
import { parseConfig } from '../src/config.ts';
import { buildInputFiles, filesUnder, root } from './build-inputs.ts';

function newestMtime(files: readonly string[]): number {
  let newest = 0;
  for (const file of files) {
    try {
      newest = Math.max(newest, statSync(file).mtimeMs);
    } catch {
      // removed meanwhile
    }
  }
  return newest;
}

const config = parseConfig();
const built = newestMtime([path.resolve(config.DIST_DIR, MANIFEST_FILE)]);
const sources = [...filesUnder(path.resolve(config.CONTENT_DIR), true), ...buildInputFiles(true)];
if (built === 0 || newestMtime(sources) > built) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.ts')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../src/server.ts');
