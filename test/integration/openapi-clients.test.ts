// The built /openapi.json as independent tools read it: Redocly's recommended rules report nothing,
// openapi-typescript generates real types for every body, and the statuses the server really sends
// are documented. Both CLIs run offline (telemetry and update checks off).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MCP_PROTOCOL_VERSION } from '../../src/core/mcp-protocol.ts';
import { PATHS } from '../../src/core/site.ts';
import { ROOT } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const run = promisify(execFile);
const OFFLINE = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  DO_NOT_TRACK: '1',
};

type Operation = { operationId?: string; responses: Record<string, unknown>; description?: string };
let server: RunningServer;
let dir: string;
let file: string;
let doc: {
  security: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

beforeAll(async () => {
  server = await startServer(inject('fixtureDist'));
  const text = await (await fetch(`${server.url}${PATHS.openapi}`)).text();
  doc = JSON.parse(text) as typeof doc;
  dir = await mkdtemp(path.join(tmpdir(), 'openapi-clients-'));
  file = path.join(dir, 'openapi.json');
  await writeFile(file, text);
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs a CLI from node_modules/.bin with this Node, offline settings and no inherited colour. */
async function cli(name: string, args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [path.join(ROOT, 'node_modules/.bin', name), ...args],
    { cwd: dir, env: { ...process.env, ...OFFLINE, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([urlPath, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
      .map(([method, operation]) => ({ urlPath, method, operation })),
  );

test('Redocly lint (recommended rules) reports no error and no warning', async () => {
  const report = JSON.parse(await cli('redocly', ['lint', file, '--format', 'json'])) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string }[];
  };
  expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
});

test('openapi-typescript generates real types for every body, the feeds and this document included', async () => {
  const out = path.join(dir, 'api.d.ts');
  await cli('openapi-typescript', [file, '-o', out]);
  const types = await readFile(out, 'utf8');
  const empty = types
    .split('\n')
    .filter((line) => line.includes('Record<string, never>'))
    .filter((line) => !/^export type (webhooks|\$defs) = /.test(line));
  expect(empty).toEqual([]);
  expect(types).toMatch(
    /getJsonFeed: \{[\s\S]*?"application\/json; charset=utf-8": components\["schemas"\]\["JsonFeed"\]/,
  );
  expect(types).toMatch(
    /getOpenApiDocument: \{[\s\S]*?"application\/json; charset=utf-8": components\["schemas"\]\["OpenApiDocument"\]/,
  );
  expect(types).toMatch(/JsonFeed: \{[\s\S]*?items: \{[\s\S]*?content_text\?: string;/);
});

describe('the document', () => {
  test('declares the API public, names every operation and has no trailing-slash path', () => {
    expect(doc.security).toEqual([]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-zA-Z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(doc.paths).filter((urlPath) => urlPath.endsWith('/'))).toEqual([]);
  });

  test('every operation documents a 400', () => {
    for (const { urlPath, method, operation } of operations())
      expect(Object.keys(operation.responses), `${method} ${urlPath}`).toContain('400');
  });

  test('the MCP and hub operations document every status they answer', () => {
    expect(Object.keys(doc.paths[PATHS.mcp]!.post!.responses).sort()).toEqual(
      ['200', '202', '400', '403', '404', '406', '413', '415', '429', '500'].sort(),
    );
    expect(Object.keys(doc.paths[PATHS.hub]!.post!.responses).sort()).toEqual(
      ['202', '400', '403', '405', '413', '415', '429', '503'].sort(),
    );
  });

  test(`states MCP protocol ${MCP_PROTOCOL_VERSION} and the older versions accepted`, () => {
    const description = doc.paths[PATHS.mcp]!.post!.description!;
    expect(description).toContain(`protocol version ${MCP_PROTOCOL_VERSION}`);
    expect(description).toContain('2025-06-18');
  });
});

describe('statuses /mcp really answers are documented', () => {
  const ACCEPT = 'application/json, text/event-stream';
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: MCP_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'openapi-test', version: '1' },
    },
  });
  const cases: [string, RequestInit][] = [
    [
      'initialize',
      { headers: { 'Content-Type': 'application/json', Accept: ACCEPT }, body: initialize },
    ],
    ['not JSON', { headers: { 'Content-Type': 'application/json', Accept: ACCEPT }, body: '{' }],
    [
      'no session',
      {
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      },
    ],
    [
      'unknown session',
      {
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'Mcp-Session-Id': 'v1.x' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      },
    ],
    [
      'foreign Origin',
      {
        headers: {
          'Content-Type': 'application/json',
          Accept: ACCEPT,
          Origin: 'https://evil.example',
        },
        body: initialize,
      },
    ],
    [
      'wrong Accept',
      { headers: { 'Content-Type': 'application/json', Accept: 'text/html' }, body: initialize },
    ],
    [
      'wrong Content-Type',
      { headers: { 'Content-Type': 'text/plain', Accept: ACCEPT }, body: initialize },
    ],
    [
      'too large',
      {
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
        body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
      },
    ],
  ];
  test.each(cases)('%s', async (_name, init) => {
    const response = await fetch(`${server.url}${PATHS.mcp}`, { method: 'POST', ...init });
    await response.arrayBuffer();
    expect(Object.keys(doc.paths[PATHS.mcp]!.post!.responses)).toContain(String(response.status));
  });

  test('GET is 405, as the path description says', async () => {
    const response = await fetch(`${server.url}${PATHS.mcp}`);
    expect(response.status).toBe(405);
    expect(doc.paths[PATHS.mcp]!.description).toContain('405');
  });
});
