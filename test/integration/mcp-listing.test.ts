// What an MCP client pays for and relies on, against the real server with the SDK client: a small
// tools/list whose schemas use one type per node, the full output schemas as resources that accept
// the real results, only the capabilities the server delivers, and one form for argument errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { outputSchemaResourceUri } from '../../src/mcp/tool-schemas.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  server = await startServer(inject('fixtureDist'));
  client = new Client({ name: 'listing-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  ({ tools } = await client.listTools());
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const call = (name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

function ajv() {
  const instance = new Ajv({ strict: false, allErrors: true });
  addFormats.default(instance);
  return instance;
}

/** Every schema node below `schema`, with its path. */
function* schemaNodes(schema: unknown, path = ''): Generator<[string, Record<string, unknown>]> {
  if (schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) yield* schemaNodes(item, `${path}[${index}]`);
    return;
  }
  const node = schema as Record<string, unknown>;
  yield [path, node];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      for (const [name, child] of Object.entries(value as object))
        yield* schemaNodes(child, `${path}.${key}.${name}`);
    } else if (['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not'].includes(key)) {
      yield* schemaNodes(value, `${path}.${key}`);
    }
  }
}

describe('tools/list', () => {
  test('is under 16 KB', async () => {
    const size = Buffer.byteLength(JSON.stringify({ tools }));
    expect(size).toBeLessThan(16 * 1024);
  });

  test('every schema node has a single type: no type arrays, no untyped nodes, no remote $ref', () => {
    const problems: string[] = [];
    for (const tool of tools) {
      for (const [kind, schema] of [
        ['inputSchema', tool.inputSchema],
        ['outputSchema', tool.outputSchema],
      ] as const) {
        for (const [path, node] of schemaNodes(schema)) {
          const where = `${tool.name}.${kind}${path}`;
          if (Array.isArray(node.type))
            problems.push(`${where}: type ${JSON.stringify(node.type)}`);
          if (typeof node.$ref === 'string' && !node.$ref.startsWith('#'))
            problems.push(`${where}: remote $ref`);
          const constrains = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', '$ref'];
          if (!constrains.some((key) => key in node)) problems.push(`${where}: untyped`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('every schema, listed or full, compiles in a strict JSON Schema 2020-12 validator', async () => {
    // A client may compile tool schemas with a strict validator: a keyword of another dialect (an
    // OpenAPI `example`, say) then stops it.
    const schemas: [string, object][] = [];
    for (const tool of tools) {
      schemas.push([`${tool.name}.inputSchema`, tool.inputSchema]);
      if (tool.outputSchema) schemas.push([`${tool.name}.outputSchema`, tool.outputSchema]);
      const uri = outputSchemaResourceUri(tool.name);
      const { resources } = await client.listResources();
      if (resources.some((resource) => resource.uri === uri)) {
        const read = await client.readResource({ uri });
        schemas.push([uri, JSON.parse((read.contents[0] as { text: string }).text) as object]);
      }
    }
    expect(schemas.length).toBeGreaterThan(tools.length);
    for (const [name, schema] of schemas) {
      const strict = new Ajv2020({ strict: true, allErrors: true });
      addFormats.default(strict);
      expect(() => strict.compile(schema), name).not.toThrow();
    }
  });

  test('nullable fields stay nullable, as anyOf branches', () => {
    const review = tools.find((tool) => tool.name === 'get_review')!.outputSchema!;
    const title = (review.properties!.review as { properties: Record<string, unknown> }).properties
      .title;
    expect(title).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  test('a large output schema is listed briefly and points to its full shape', async () => {
    const insights = tools.find((tool) => tool.name === 'get_insights')!.outputSchema!;
    const uri = outputSchemaResourceUri('get_insights');
    expect((insights.properties!.aspects as { description: string }).description).toContain(uri);
    expect(JSON.stringify(insights).length).toBeLessThan(2048);
    const read = await client.readResource({ uri });
    const full = JSON.parse((read.contents[0] as { text: string }).text) as {
      properties: Record<string, { properties?: object }>;
    };
    expect(Object.keys(full.properties.aspects!.properties!)).toContain('workmanship');
  });
});

describe('output schema resources', () => {
  test.each([
    ['get_business', {}],
    ['get_insights', {}],
    ['get_insights', { section: 'entities' }],
    ['get_review', { id: 'the newest review' }],
    ['search_reviews', { limit: 100 }],
    ['get_reviews_since', { date: '2000-01-01' }],
  ])('%s %j: the full and the listed schema accept the real result', async (name, given) => {
    let args: Record<string, unknown> = given;
    const { resources } = await client.listResources();
    const uri = outputSchemaResourceUri(name);
    expect(resources.map((resource) => resource.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    const full = JSON.parse((read.contents[0] as { text: string }).text) as object;
    if (name === 'get_review') {
      const newest = await call('search_reviews', { limit: 1 });
      args = { id: (newest.structuredContent as { reviews: { id: string }[] }).reviews[0]!.id };
    }
    const result = await call(name, args);
    expect(result.isError).toBeFalsy();
    for (const schema of [full, tools.find((tool) => tool.name === name)!.outputSchema!]) {
      const validate = ajv().compile(schema);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe('initialize', () => {
  test('advertises only what the server delivers: no listChanged, no subscriptions', () => {
    expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {}, logging: {} });
  });

  test(`speaks ${LATEST_PROTOCOL_VERSION}, and answers it to a client asking for a newer one`, async () => {
    for (const asked of [LATEST_PROTOCOL_VERSION, '2099-01-01']) {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: asked,
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
      const body = (await response.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).toBe('2025-11-25');
    }
  });
});

test('llms.txt and the OpenAPI description state the newest version and the older ones accepted', async () => {
  const llms = await (await fetch(`${server.url}/llms.txt`)).text();
  const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: { '/mcp': { post: { description: string } } };
  };
  for (const text of [llms, openapi.paths['/mcp'].post.description]) {
    expect(text).toMatch(
      /protocol (version )?2025-11-25 \(older clients may ask for 2025-06-18, 2025-03-26, /,
    );
    expect(text).not.toMatch(/protocol (version )?2025-06-18/);
  }
});

describe('argument errors', () => {
  test.each([
    ['search_reviews', { rating: 9 }, 'Invalid arguments: rating: '],
    [
      'search_reviews',
      { colour: 'red' },
      'Invalid arguments: colour: is not an argument of this tool',
    ],
    ['search_reviews', { since: '2024-02-01', until: '2024-01-01' }, 'Invalid arguments: since: '],
    ['search_reviews', { mentions_service: 'chimneys' }, 'Invalid arguments: mentions_service: '],
    ['get_review', { id: 'no-such-review' }, 'Invalid arguments: id: '],
    ['get_review', {}, 'Invalid arguments: id: is required (expected string)'],
    ['get_reviews_since', { date: '2023-02-30' }, 'Invalid arguments: date: '],
    ['get_insights', { section: 'gossip' }, 'Invalid arguments: section: '],
    ['get_business', { extra: 1 }, 'Invalid arguments: extra: is not an argument of this tool'],
  ])('%s %j is an error result in the one form', async (name, args, start) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(text.startsWith(start), text).toBe(true);
    expect(text).not.toMatch(/MCP error|Input validation error/);
  });

  test('an unknown tool is JSON-RPC -32602 naming the tools', async () => {
    await expect(call('get_weather')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: get_weather; tools: get_business'),
    });
  });
});
