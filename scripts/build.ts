// `npm run build`: runs scripts/build-site.ts in a Node process whose heap is bounded, so V8
// collects garbage before the build's resident memory grows past what a 100k-review build needs
// (left alone it lets page rendering's garbage pile up into gigabytes).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Heap for the build; 100k reviews need about half of it live. */
export const BUILD_HEAP_MB = 2048;

const child = spawn(
  process.execPath,
  [
    `--max-old-space-size=${BUILD_HEAP_MB}`,
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-site.ts'),
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
