// `npm start`: build when the built site is missing or older than the content or the code, then serve.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_FILE } from '../src/build/manifest.ts';
import { parseConfig } from '../src/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(target: string): number {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const config = parseConfig();
const built = newestMtime(path.resolve(config.DIST_DIR, MANIFEST_FILE));
const sources = [
  config.CONTENT_DIR,
  path.join(root, 'src'),
  path.join(root, 'scripts', 'build-site.ts'),
  path.join(root, 'astro.config.mjs'),
  path.join(root, 'package-lock.json'),
];
if (built === 0 || sources.some((source) => newestMtime(path.resolve(source)) > built)) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.ts')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../src/server.ts');
