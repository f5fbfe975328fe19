// Bounded work per request, against the real server: MCP batches, paging bounds and the text
// block, the /mcp rate limit behind a trusted proxy, malformed Host, error amplification, the
// server-islands route, and the request log and metrics an operator reads.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { compileTrustProxy } from '../../src/http/client-address.ts';
import { createLogger, createRequestLogger } from '../../src/ops/logger.ts';
import { createMetrics } from '../../src/ops/metrics.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { request as rawRequest } from 'node:http';
import { connect } from 'node:net';

const dist = inject('fixtureDist');
const ACCEPT = 'application/json, text/event-stream';
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const metrics = createMetrics();
let server: RunningServer;
let limited: RunningServer;

function initializeMessage(protocolVersion: string, id: string | number = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'hardening', version: '1' } },
  };
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

async function session(url: string, protocolVersion: string, headers = {}): Promise<string> {
  const response = await post(url, initializeMessage(protocolVersion), headers);
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id')!;
}

beforeAll(async () => {
  const trust = compileTrustProxy('loopback');
  const logger = createLogger('info', sink);
  server = await startServer(dist, {
    app: { logger, requestLogger: createRequestLogger(logger, trust), metrics, trustProxy: trust },
  });
  limited = await startServer(dist, { app: { mcpRateLimitPerMinute: 5, trustProxy: trust } });
});
afterAll(async () => {
  await server.close();
  await limited.close();
});

describe('JSON-RPC batches', () => {
  test('are refused for protocol 2025-06-18 and later, which removed them', async () => {
    const id = await session(server.url, '2025-06-18');
    const call = { jsonrpc: '2.0', method: 'tools/list' };
    const response = await post(
      server.url,
      [call, call].map((m, i) => ({ ...m, id: i + 1 })),
      {
        'Mcp-Session-Id': id,
        'MCP-Protocol-Version': '2025-06-18',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: -32600,
        message: expect.stringMatching(/batches are not part of MCP 2025-06-18/),
      },
    });
  });

  test('a batch that initializes with a newer version is refused too', async () => {
    const response = await post(server.url, [initializeMessage('2025-11-25')]);
    expect(response.status).toBe(400);
  });

  test('an empty batch is an Invalid Request error, not 202', async () => {
    const id = await session(server.url, '2025-03-26');
    const response = await post(server.url, [], { 'Mcp-Session-Id': id });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  });

  test('older clients may batch, at most 10 messages', async () => {
    const id = await session(server.url, '2025-03-26');
    const headers = { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-03-26' };
    const message = (n: number) => ({ jsonrpc: '2.0', id: n, method: 'tools/list' });
    const ok = await post(server.url, [1, 2].map(message), headers);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as unknown[]).length).toBe(2);
    const tooMany = await post(
      server.url,
      Array.from({ length: 11 }, (_, i) => message(i)),
      headers,
    );
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toMatch(/at most 10 messages/);
  });
});

describe('answers are bounded', () => {
  async function callTool(protocolVersion: string, name: string, args: unknown) {
    const id = await session(server.url, protocolVersion);
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } },
      { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': protocolVersion },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      result: { structuredContent: Record<string, unknown>; content: { text: string }[] };
    };
    return body.result;
  }

  test('get_reviews_since 1900-01-01 returns one page, not every review', async () => {
    const result = await callTool('2025-11-25', 'get_reviews_since', {
      date: '1900-01-01',
      limit: 1,
    });
    expect(result.structuredContent.count).toBe(1);
    expect(result.structuredContent.total).toBe(server.site.index.count);
    expect(result.structuredContent.next_cursor).toEqual(expect.any(String));
  });

  test('get_reviews_since refuses a limit over 100', async () => {
    const result = await callTool('2025-11-25', 'get_reviews_since', {
      date: '1900-01-01',
      limit: 101,
    });
    expect(JSON.stringify(result)).toMatch(/Invalid arguments: limit/);
  });

  test('a small result keeps its JSON text block, and old clients always get the JSON', async () => {
    const small = await callTool('2025-11-25', 'get_reviews_since', { date: '2100-01-01' });
    expect(JSON.parse(small.content[0]!.text)).toEqual(small.structuredContent);
    const legacy = await callTool('2025-03-26', 'get_insights', {});
    expect(JSON.parse(legacy.content[0]!.text)).toEqual(legacy.structuredContent);
  });
});

describe('the /mcp rate limit', () => {
  test('refuses a client past its limit with 429 and Retry-After, keyed on the client behind the proxy', async () => {
    const from = (client: string) => ({ 'X-Forwarded-For': client });
    for (let i = 0; i < 5; i += 1) {
      const response = await post(
        limited.url,
        initializeMessage('2025-06-18'),
        from('203.0.113.7'),
      );
      expect(response.status).toBe(200);
    }
    const refused = await post(
      limited.url,
      initializeMessage('2025-06-18', 'call-6'),
      from('203.0.113.7'),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refusal names the request it refuses.
    expect(await refused.json()).toMatchObject({ error: { code: -32000 }, id: 'call-6' });
    // Another client behind the same (trusted) proxy is not locked out.
    const other = await post(limited.url, initializeMessage('2025-06-18'), from('198.51.100.9'));
    expect(other.status).toBe(200);
  });
});

describe('malformed input', () => {
  function rawPost(host: string): Promise<{ status: number; body: string; cors: unknown }> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = rawRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          setHost: false,
          headers: { Host: host, 'Content-Type': 'application/json', Accept: ACCEPT },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body,
              cors: res.headers['access-control-allow-origin'],
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(initializeMessage('2025-06-18')));
    });
  }

  test('a malformed Host header is a 400 with CORS, logged once without a stack', async () => {
    const before = lines.length;
    const answer = await rawPost('a b');
    expect(answer.status).toBe(400);
    expect(answer.cors).toBe('*');
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_request' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ res: { statusCode: 400 }, level: 40 });
    expect(JSON.stringify(logged[0])).not.toMatch(/stack|at \w+ \(/);
  });

  /** The whole answer to `raw`, sent over a socket of its own. */
  function rawAnswer(raw: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
  }

  test('two Host headers are a 400, as a malformed one is', async () => {
    const answer = await rawAnswer(
      'GET /reviews.json HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('not one valid host[:port]');
  });

  test('an HTTP/1.1 request without Host is a JSON 400 with CORS; an HTTP/1.0 one is answered', async () => {
    const missing = await rawAnswer(
      'GET /api/reviews/search HTTP/1.1\r\nConnection: close\r\n\r\n',
    );
    expect(missing).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(missing.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(JSON.parse(missing.slice(missing.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: 'invalid_request',
      issues: [{ path: ['host'], code: 'missing_host' }],
    });
    const old = await rawAnswer('GET /api/reviews/search?limit=1 HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  test('a URL over 8 KiB is a JSON 414 with CORS, below the 16 KiB where the parser stops', async () => {
    for (const length of [8_300, 12_000, 15_500]) {
      const response = await fetch(`${server.url}/reviews.json?q=${'a'.repeat(length)}`);
      expect(response.status, `${length}`).toBe(414);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({ error: 'uri_too_long' });
    }
    const search = await fetch(`${server.url}/api/reviews/search?query=${'a'.repeat(9_000)}`);
    expect(search.status).toBe(414);
    expect((await fetch(`${server.url}/reviews.json?q=${'a'.repeat(8_000)}`)).status).toBe(200);
  });

  test.each([
    ['/healthz', 'GET, HEAD, OPTIONS'],
    ['/no/such/page', 'GET, HEAD, OPTIONS'],
    ['/reviews.json', 'GET, HEAD, OPTIONS'],
    ['/mcp', 'POST, OPTIONS'],
    ['/api/websub/hub', 'POST, OPTIONS'],
  ])('TRACE %s is a JSON 405 naming what the path allows', async (path, allow) => {
    const answer = await rawAnswer(
      `TRACE ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain(`Allow: ${allow}\r\n`);
    expect(answer.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: 'method_not_allowed',
    });
  });

  test('a search with thousands of unknown parameters gets a short answer', async () => {
    // About 7 KB of URL, under the 8 KiB limit: every name unknown.
    const junk = Array.from({ length: 1500 }, (_, i) => `${i.toString(36)}=`).join('&');
    expect(junk.length).toBeLessThan(8 * 1024 - 30);
    const response = await fetch(`${server.url}/api/reviews/search?${junk}`);
    expect(response.status).toBe(400);
    expect((await response.text()).length).toBeLessThan(2048);
  });

  test('a search listing many issues lists at most 20 and says how many there were', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `unknown${i}=1`).join('&');
    const response = await fetch(`${server.url}/api/reviews/search?${names}`);
    const body = (await response.json()) as { message: string; issues: unknown[] };
    expect(body.issues).toHaveLength(20);
    expect(body.message).toMatch(/30 issues; the first 20 are listed/);
  });

  test('__proto__ as a search parameter is refused like any unknown name', async () => {
    const response = await fetch(`${server.url}/api/reviews/search?__proto__=1`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ issues: [{ path: ['__proto__'] }] });
  });

  test("Astro's server-islands route is off", async () => {
    const response = await fetch(`${server.url}/_server-islands/Anything`, {
      method: 'POST',
      body: 'x'.repeat(1000),
    });
    expect(response.status).toBe(404);
  });
});

describe('what an operator sees', () => {
  test('one JSON log line per request with pino-http field names and the client address', async () => {
    const before = lines.length;
    await fetch(`${server.url}/api/reviews/search?rating=5`, {
      headers: { 'X-Forwarded-For': '192.0.2.44' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = lines.slice(before).find((entry) => entry.msg === 'request completed');
    expect(line).toMatchObject({
      req: { method: 'GET', url: '/api/reviews/search?rating=5' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      client: '192.0.2.44',
    });
  });

  test('a chunked body over 64 KiB to /mcp is a 413 that closes the connection, logged with the client, and the server lives on', async () => {
    const before = lines.length;
    const answer = await new Promise<{ status: number; connection: string | undefined }>(
      (resolve, reject) => {
        const { port } = new URL(server.url);
        const req = rawRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/mcp',
            headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode!, connection: res.headers.connection }),
            );
          },
        );
        req.on('error', reject);
        // No Content-Length: Node sends the body chunked, so only reading it finds its size.
        req.write('a'.repeat(40_000));
        req.end('a'.repeat(40_000));
      },
    );
    expect(answer).toEqual({ status: 413, connection: 'close' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const logged = lines
      .slice(before)
      .find((entry) => entry.req && (entry.req as { url: string }).url === '/mcp');
    expect(logged).toMatchObject({ res: { statusCode: 413 }, client: '127.0.0.1' });
  });

  test('a client that leaves before its body is read is one line without a stack, not an error', async () => {
    const before = lines.length;
    for (const path of ['/mcp', '/api/reviews/search']) {
      await new Promise<void>((resolve) => {
        const { port } = new URL(server.url);
        const req = rawRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          headers: {
            'Content-Type': 'application/json',
            Accept: ACCEPT,
            'Content-Length': '100',
          },
        });
        req.on('error', () => resolve());
        req.write('0123456789', () => setTimeout(() => req.destroy(), 50));
        req.on('close', () => resolve());
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = lines.slice(before);
    expect(logged.filter((entry) => (entry.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(logged)).not.toMatch(/stack|ECONNRESET|at \w+ \(/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test('metrics count requests by route and status', async () => {
    await fetch(`${server.url}/healthz`);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/http_requests_total\{route="healthz",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="search"\} \d+/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
  });
});
