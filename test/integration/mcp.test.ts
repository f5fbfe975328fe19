// POST /mcp against the real server: the SDK client end to end, the status-code matrix, signed
// sessions across instances, and search_reviews equal to the HTTP search.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { INSIGHTS_SECTIONS } from '../../src/core/insights/dataset-schema.ts';
import { FIXTURE_SITE_URL } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const dist = inject('fixtureDist');
let server: RunningServer;
let client: Client;

const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  },
};

async function connect(url: string): Promise<Client> {
  const connected = new Client({ name: 'integration-test', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return connected;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function initialize(url: string): Promise<string> {
  const response = await post(url, INITIALIZE);
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id')!;
}

beforeAll(async () => {
  server = await startServer(dist, { mcpAllowedOrigins: ['https://assistant.example'] });
  client = await connect(server.url);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const call = (name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('initialize', () => {
  test('with protocolVersion 2025-06-18 answers that version, instructions and a session header', async () => {
    const response = await post(server.url, INITIALIZE);
    expect(response.status).toBe(200);
    const sessionId = response.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^v1\./);
    expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    const body = (await response.json()) as {
      result: { protocolVersion: string; instructions: string; serverInfo: { name: string } };
    };
    expect(body.result.protocolVersion).toBe('2025-06-18');
    expect(body.result.instructions).toContain('Fixture Roofing & Sons');
    expect(body.result.instructions).toContain('search_reviews');
    expect(body.result.serverInfo.name).toBe('roofing-reviews');
  });

  test.each(['2025-03-26', '2024-11-05'])(
    'accepts the older protocol version %s',
    async (version) => {
      const response = await post(server.url, {
        ...INITIALIZE,
        params: { ...INITIALIZE.params, protocolVersion: version },
      });
      expect(
        ((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
      ).toBe(version);
    },
  );

  test('the SDK client connects with no key and gets a session id', () => {
    expect(client.getServerVersion()?.name).toBe('roofing-reviews');
    expect(client.getInstructions()).toContain('get_business');
  });
});

describe('tools/list', () => {
  test('lists every tool with title, schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_business',
      'get_insights',
      'get_review',
      'get_reviews_since',
      'search_reviews',
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const search = tools.find((tool) => tool.name === 'search_reviews')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual([
      'rating',
      'min_rating',
      'since',
      'until',
      'query',
      'mentions_technician',
      'mentions_service',
      'limit',
      'cursor',
    ]);
    expect(search.inputSchema.properties?.rating).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 5,
    });
  });
});

describe('tools/call', () => {
  test('get_business returns the business and aggregate rating, with a JSON text mirror', async () => {
    const result = await call('get_business');
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      business: { name: string };
      aggregate_rating: { review_count: number; distribution: Record<string, number> };
    };
    expect(structured.business.name).toBe('Fixture Roofing & Sons');
    expect(structured.aggregate_rating.review_count).toBe(6);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(structured);
  });

  test('get_review returns one review by id', async () => {
    const result = await call('get_review', { id: '2024-05-01-new-roof' });
    expect((result.structuredContent as { review: { id: string } }).review.id).toBe(
      '2024-05-01-new-roof',
    );
  });

  test('get_reviews_since returns what the since endpoint returns, a page at a time', async () => {
    const http = (await (await fetch(`${server.url}/api/reviews/since/2020-01-01`)).json()) as {
      count: number;
      reviews: unknown[];
    };
    const whole = await call('get_reviews_since', { date: '2020-01-01' });
    expect(whole.structuredContent).toEqual({
      since: '2020-01-01',
      total: http.count,
      count: http.count,
      limit: 20,
      reviews: http.reviews,
    });
    // Two at a time, following next_cursor, gives the same reviews in the same order.
    const paged: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await call('get_reviews_since', {
        date: '2020-01-01',
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      const content = result.structuredContent as { reviews: unknown[]; next_cursor?: string };
      paged.push(...content.reviews);
      cursor = content.next_cursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(http.reviews);
  });

  test('a cursor is refused for a different question, and when it is not a cursor', async () => {
    const first = await call('get_reviews_since', { date: '2020-01-01', limit: 1 });
    const cursor = (first.structuredContent as { next_cursor: string }).next_cursor;
    expect(cursor).toBeTruthy();
    const other = await call('get_reviews_since', { date: '2021-01-01', cursor });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toMatch(
      /Invalid arguments: cursor: belongs to a different question/,
    );
    const junk = await call('search_reviews', { cursor: 'bm90LWEtY3Vyc29y' });
    expect(JSON.stringify(junk.content)).toMatch(/Invalid arguments: cursor: is not a cursor/);
  });

  test('search_reviews pages past the first limit with next_cursor', async () => {
    const all = (await call('search_reviews', { limit: 100 })).structuredContent as {
      total: number;
      reviews: { id: string }[];
    };
    const first = (await call('search_reviews', { limit: 2 })).structuredContent as {
      total: number;
      reviews: { id: string }[];
      next_cursor: string;
    };
    const second = (await call('search_reviews', { limit: 2, cursor: first.next_cursor }))
      .structuredContent as { reviews: { id: string }[] };
    expect(first.total).toBe(all.total);
    expect([...first.reviews, ...second.reviews].map((r) => r.id)).toEqual(
      all.reviews.slice(0, 4).map((r) => r.id),
    );
  });

  test('get_insights returns the whole dataset or one section', async () => {
    const whole = await call('get_insights');
    expect(whole.structuredContent).toEqual(
      await (await fetch(`${server.url}/insights.json`)).json(),
    );
    const faq = (await call('get_insights', { section: 'faq' })).structuredContent as Record<
      string,
      unknown
    >;
    expect(faq.faq).toEqual([{ question: 'Do you fix leaks?', answer: 'Yes, same week.' }]);
    expect(faq.entities).toBeUndefined();
  });

  test.each([
    ['search_reviews', { rating: 9 }, ['rating', '1 to 5']],
    ['search_reviews', { rating: '5' }, ['rating', '1 to 5']],
    ['search_reviews', { limit: 0 }, ['limit', '1 to 100']],
    ['search_reviews', { since: '2023-02-30' }, ['since', 'real calendar date']],
    [
      'search_reviews',
      { mentions_service: 'chimneys' },
      ['mentions_service', 'roof-replacement, leak-repair, gutters'],
    ],
    ['search_reviews', { colour: 'red' }, ['colour']],
    ['get_review', { id: 'no-such-review' }, ['id', 'no-such-review']],
    ['get_review', {}, ['id']],
    ['get_reviews_since', { date: 'yesterday' }, ['date', 'YYYY-MM-DD']],
    ['get_insights', { section: 'gossip' }, ['section', INSIGHTS_SECTIONS.join(', ')]],
  ])(
    '%s with bad arguments %j is an error result naming the argument',
    async (name, args, words) => {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      for (const word of words) expect(text).toContain(word);
    },
  );

  const searches: Record<string, unknown>[] = [
    {},
    { rating: 5 },
    { min_rating: 3, limit: 2 },
    { query: 'CAFE' },
    { mentions_technician: 'big mike' },
    { mentions_service: 'leak-repair', since: '2022-01-01', until: '2024-12-31' },
    { min_rating: 1.5, query: 'leak', limit: 100 },
  ];
  test.each(searches)('search_reviews %j equals GET /api/reviews/search', async (args) => {
    const result = await call('search_reviews', args);
    const qs = new URLSearchParams(
      Object.entries(args).map(([key, value]) => [key, String(value)]),
    );
    const http = (await (await fetch(`${server.url}/api/reviews/search?${qs}`)).json()) as {
      total: number;
      count: number;
    };
    const { next_cursor: next, ...page } = result.structuredContent as { next_cursor?: string };
    expect(page).toEqual(http);
    // A cursor is offered exactly when more matches remain.
    expect(next !== undefined).toBe(http.count < http.total);
  });
});

describe('resources', () => {
  test('lists the datasets and reads them as served over HTTP', async () => {
    const { resources } = await client.listResources();
    const datasets = resources.filter((resource) => resource.uri.startsWith(FIXTURE_SITE_URL));
    expect(datasets.map((resource) => resource.uri).sort()).toEqual(
      [
        `${FIXTURE_SITE_URL}/api/feed.json`,
        `${FIXTURE_SITE_URL}/insights.json`,
        `${FIXTURE_SITE_URL}/reviews.json`,
      ].sort(),
    );
    const read = await client.readResource({ uri: `${FIXTURE_SITE_URL}/reviews.json` });
    expect((read.contents[0] as { text: string }).text).toBe(
      await (await fetch(`${server.url}/reviews.json`)).text(),
    );
  });
});

describe('status codes', () => {
  test('unknown tool is JSON-RPC -32602', async () => {
    const session = await initialize(server.url);
    const response = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'drop_tables', arguments: {} },
      },
      { 'Mcp-Session-Id': session },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      id: number;
      error: { code: number; message: string };
    };
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain('drop_tables');
  });

  test("an unknown tool's message does not repeat the code, which clients print themselves", async () => {
    const session = await initialize(server.url);
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      { 'Mcp-Session-Id': session },
    );
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Unknown tool: nope; tools: /);
  });

  test.each([
    ['tools/call', { name: 5 }, 'Invalid params: params.name: Invalid input: expected string'],
    ['tools/call', {}, 'Invalid params: params.name: '],
    ['tools/call', { name: 'get_business', arguments: [1] }, 'Invalid params: params.arguments: '],
    ['resources/read', {}, 'Invalid params: params.uri: '],
    ['resources/read', { uri: 'not a url' }, 'Invalid params: params.uri: "not a url" is not an'],
    ['resources/read', { uri: '' }, 'Invalid params: params.uri: "" is not an absolute URI'],
    ['resources/read', { uri: 'http://[' }, 'Invalid params: params.uri: '],
    ['logging/setLevel', { level: 'nope' }, 'Invalid params: params.level: Invalid option'],
  ])('%s with params %j is -32602 with a short reason', async (method, params, start) => {
    const session = await initialize(server.url);
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 9, method, params },
      { 'Mcp-Session-Id': session },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      id: number;
      error: { code: number; message: string };
    };
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message.startsWith(start), body.error.message).toBe(true);
    expect(body.error.message).not.toMatch(/\n|"code"/);
  });

  test('initialize without params is -32602', async () => {
    const response = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });

  test.each([
    ['{}', 'jsonrpc must be "2.0"'],
    ['null', 'a message must be a JSON object'],
    ['42', 'a message must be a JSON object'],
    ['{"id":3,"method":"ping"}', 'jsonrpc must be "2.0"'],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', 'id must be a string or a whole number'],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', 'id must be a string or a whole number'],
    ['{"jsonrpc":"2.0","id":1,"method":5}', 'method must be a string'],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}', 'params must be an object'],
    ['{"jsonrpc":"2.0","id":1}', 'a response has either a result or an error'],
  ])('JSON that is not a JSON-RPC message (%s) is -32600 Invalid Request', async (text, reason) => {
    const session = await initialize(server.url);
    const response = await post(server.url, text, { 'Mcp-Session-Id': session });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error).toEqual({ code: -32600, message: `Invalid Request: ${reason}` });
  });

  test('an older client batch of one gets an array of one; ids used twice are refused', async () => {
    const old = { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-03-26' } };
    const session = (await post(server.url, old)).headers.get('mcp-session-id')!;
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-03-26' };
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const one = await post(server.url, [ping], headers);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const twice = await post(server.url, [ping, ping], headers);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid Request: message 2 of the batch: the id 1 is used twice in the batch',
      },
    });
  });

  test('a body that is not UTF-8 is -32700, not read with U+FFFD in place of its bytes', async () => {
    const session = await initialize(server.url);
    const call = (query: Buffer) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'Mcp-Session-Id': session },
        body: new Uint8Array(
          Buffer.concat([
            Buffer.from(
              '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":{"query":"',
            ),
            query,
            Buffer.from('"}}}'),
          ]),
        ),
      });
    for (const bad of [Buffer.from([0xff]), Buffer.from([0x63, 0x61, 0x66, 0xe9])]) {
      const response = await call(bad);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
      });
    }
    expect((await call(Buffer.from('café'))).status).toBe(200);
  });

  test('malformed JSON is -32700', async () => {
    const response = await post(server.url, '{"jsonrpc": "2.0", "id": 1,');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  test('a compressed body is 415: no content coding is read', async () => {
    const response = await post(server.url, INITIALIZE, { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('identity');
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('Content-Encoding is not supported') },
    });
    expect((await post(server.url, INITIALIZE, { 'Content-Encoding': 'identity' })).status).toBe(
      200,
    );
  });

  test('wrong Content-Type is 415', async () => {
    expect((await post(server.url, INITIALIZE, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const utf16 = { 'Content-Type': 'application/json; charset=utf-16' };
    expect((await post(server.url, INITIALIZE, utf16)).status).toBe(415);
    const utf8 = { 'Content-Type': 'application/json; charset="UTF-8"' };
    expect((await post(server.url, INITIALIZE, utf8)).status).toBe(200);
  });

  test('missing Accept is 406', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(406);
  });

  test.each([
    'application/json;q=0, text/event-stream',
    'application/json, text/event-stream; q=0.000',
    'application/json-seq, text/event-stream-x',
    '*/*',
  ])('Accept %j, which does not take both, is 406', async (accept) => {
    const response = await post(server.url, INITIALIZE, { Accept: accept });
    expect(response.status).toBe(406);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /Accept must list application\/json and text\/event-stream/,
    );
  });

  test('Accept with weights above zero and other parameters is taken', async () => {
    const accept = 'text/event-stream;q=0.5, application/json; charset=utf-8;Q=1, */*;q=0.1';
    expect((await post(server.url, INITIALIZE, { Accept: accept })).status).toBe(200);
  });

  test('a request without Mcp-Session-Id after initialize is 400', async () => {
    const response = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(response.status).toBe(400);
  });

  test('an invalid Mcp-Session-Id is 404', async () => {
    const response = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'Mcp-Session-Id': 'v1.abc.def.ghi' },
    );
    expect(response.status).toBe(404);
  });

  test.each(['GET', 'DELETE'])('%s is 405', async (method) => {
    const response = await fetch(`${server.url}/mcp`, { method, headers: { Accept: ACCEPT } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('a body over 64 KiB is 413, declared or chunked', async () => {
    const big = JSON.stringify({ ...INITIALIZE, padding: 'x'.repeat(70 * 1024) });
    expect((await post(server.url, big)).status).toBe(413);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test('a foreign Origin is 403; the site, an allowed origin and no Origin are accepted', async () => {
    expect((await post(server.url, INITIALIZE, { Origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect(
      (await post(server.url, INITIALIZE, { Origin: new URL(FIXTURE_SITE_URL).origin })).status,
    ).toBe(200);
    expect(
      (await post(server.url, INITIALIZE, { Origin: 'https://assistant.example' })).status,
    ).toBe(200);
    expect((await post(server.url, INITIALIZE)).status).toBe(200);
  });

  test('CORS preflight allows the MCP headers and exposes Mcp-Session-Id', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://assistant.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    const allowed = response.headers.get('access-control-allow-headers')!;
    for (const name of ['Content-Type', 'Accept', 'Mcp-Session-Id', 'MCP-Protocol-Version'])
      expect(allowed).toContain(name);
    expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });
});

describe('sessions across instances', () => {
  test('a session from one instance is accepted by another with the same secret', async () => {
    const other = await startServer(dist);
    try {
      const session = await initialize(server.url);
      const response = await post(
        other.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { 'Mcp-Session-Id': session },
      );
      expect(response.status).toBe(200);
      expect(
        ((await response.json()) as { result: { tools: unknown[] } }).result.tools,
      ).toHaveLength(5);
    } finally {
      await other.close();
    }
  });

  test('with a different secret the session is 404', async () => {
    const other = await startServer(dist, { mcpSessionSecret: 'a-completely-different-secret' });
    try {
      const session = await initialize(server.url);
      const response = await post(
        other.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { 'Mcp-Session-Id': session },
      );
      expect(response.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('DNS rebinding protection', () => {
  test('a same-origin page on a loopback host is accepted', async () => {
    const { host } = new URL(server.url);
    expect((await post(server.url, INITIALIZE, { Origin: `http://${host}` })).status).toBe(200);
  });

  test('a rebound name is refused even when Origin and Host agree', async () => {
    const response = await post(server.url, INITIALIZE, {
      Origin: 'http://evil.example.com',
      Host: 'evil.example.com',
    });
    expect(response.status).toBe(403);
  });
});

test('logging/setLevel is accepted (logging capability)', async () => {
  await expect(client.setLoggingLevel('warning')).resolves.toEqual({});
});
