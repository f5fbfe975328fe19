// `npm start` (scripts/start.ts) on a site that was never built: builds, then serves it.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { FIXTURE_CONTENT, ROOT, distPath } from '../support/build-site.ts';

test('npm start builds a missing site and serves it', async () => {
  const distDir = distPath('dist-start');
  await rm(distDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTENT_DIR: FIXTURE_CONTENT,
      DIST_DIR: distDir,
      PORT: '0',
      DATA_DIR: path.join(distDir, '..', 'start-data'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /reviews service: \d+ reviews on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    expect(output).toMatch(/built 6 reviews \(1 skipped\)/);
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Fixture Roofing');
    expect((await fetch(`${url}/api/reviews/search?limit=1`)).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
});
