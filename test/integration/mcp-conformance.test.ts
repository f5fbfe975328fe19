// The official MCP conformance suite against the real server: every scenario that applies passes;
// the ones that need the suite's own fixture server are listed, each with its reason, in the baseline.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { ROOT } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer(inject('fixtureDist'));
});
afterAll(() => server.close());

function runConformance(url: string): Promise<{ code: number | null; output: string }> {
  const cli = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const baseline = path.join(ROOT, 'test/fixtures/mcp-conformance-baseline.yml');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cli, 'server', '--url', url, '--expected-failures', baseline],
      {
        cwd: path.join(ROOT, 'test-results'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

test(
  'passes every applicable scenario of @modelcontextprotocol/conformance',
  { timeout: 240_000 },
  async () => {
    await mkdir(path.join(ROOT, 'test-results'), { recursive: true });
    const { code, output } = await runConformance(`${server.url}/mcp`);
    const summary = output.slice(output.indexOf('=== SUMMARY ==='));
    expect(code, summary).toBe(0);
    for (const scenario of [
      'server-initialize',
      'ping',
      'tools-list',
      'resources-list',
      'logging-set-level',
      'dns-rebinding-protection',
    ]) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}:`));
    }
  },
);
