// `/openapi.json`: OpenAPI 3.1 for every endpoint, generated from the same zod schemas the server
// validates with, so the description cannot drift from the behaviour.
import { z } from 'zod';
import { ErrorBodySchema } from './errors.ts';
import { InsightsDatasetSchema } from './insights/dataset.ts';
import { ReviewsDatasetSchema, type Business } from './review.ts';
import { SearchParamsSchema, SearchResultSchema, SinceResultSchema } from './search.ts';
import { CONTENT_TYPES, PATHS, TOPIC_PATHS } from './site.ts';
import { IsoDateSchema } from './dates.ts';

export const API_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (description: string) => ({ description, schema: { type: 'string' } });

const readHeaders = {
  ETag: header('strong validator from the body bytes'),
  'Last-Modified': header('when the published content last changed'),
  'Cache-Control': header('public, max-age=60, stale-while-revalidate=300'),
  'Access-Control-Allow-Origin': header('*'),
};
const topicHeaders = {
  ...readHeaders,
  Link: header('<hub>; rel="hub", <topic>; rel="self" (WebSub discovery)'),
};

const errorResponse = (description: string) => ({
  description,
  content: { [CONTENT_TYPES.json]: { schema: ref('Error') } },
});
const notModified = {
  description: 'the validator matched (If-None-Match or If-Modified-Since); empty body',
  headers: readHeaders,
};

function readOperation(
  summary: string,
  description: string,
  contentType: string,
  schema: JsonSchema,
  isTopic = false,
) {
  return {
    get: {
      summary,
      description,
      responses: {
        '200': {
          description: 'OK',
          headers: isTopic ? topicHeaders : readHeaders,
          content: { [contentType]: { schema } },
        },
        '304': notModified,
      },
    },
  };
}

export interface OpenApiContext {
  siteUrl: string;
  business: Business;
}

export function buildOpenApiDocument({
  siteUrl,
  business,
}: OpenApiContext): Record<string, unknown> {
  const searchParameters = Object.entries(SearchParamsSchema.shape).map(([name, schema]) => {
    const json = toSchema(schema, 'input');
    const { description, ...rest } = json;
    return { name, in: 'query', required: false, description, schema: rest };
  });
  const isTopic = (path: string) => (TOPIC_PATHS as readonly string[]).includes(path);
  return {
    openapi: '3.1.0',
    info: {
      title: `${business.name} reviews API`,
      version: API_VERSION,
      description:
        'Read-only, public data service for the verified customer reviews of one roofing business: datasets, ' +
        'feeds, search, a since-date endpoint, an MCP endpoint and a WebSub hub. No key, no account. Every ' +
        'read endpoint supports conditional GET (ETag, Last-Modified) and HEAD, and sends CORS headers.',
    },
    servers: [{ url: siteUrl }],
    paths: {
      [PATHS.reviews]: readOperation(
        'Reviews dataset',
        'Business metadata, aggregate rating and every verified review, newest first.',
        CONTENT_TYPES.json,
        ref('ReviewsDataset'),
        isTopic(PATHS.reviews),
      ),
      [PATHS.insights]: readOperation(
        'Insights dataset',
        'Aspect-based sentiment, entities (technicians, services, service areas), topics, FAQ and summary.',
        CONTENT_TYPES.json,
        ref('InsightsDataset'),
      ),
      [PATHS.jsonFeed]: readOperation(
        'JSON Feed 1.1 of the 50 newest reviews (WebSub topic)',
        'See https://jsonfeed.org/version/1.1; each item carries a `_review` extension.',
        CONTENT_TYPES.json,
        { type: 'object' },
        true,
      ),
      [PATHS.atomFeed]: readOperation(
        'Atom feed of the 50 newest reviews (WebSub topic)',
        'RFC 4287 Atom with rel="self" and rel="hub" links.',
        CONTENT_TYPES.atom,
        { type: 'string' },
        true,
      ),
      [PATHS.search]: {
        get: {
          summary: 'Search reviews',
          description:
            'Filters AND-combine; results are newest first (date desc, then id). `total` counts every match, ' +
            '`count` those returned. Unknown or repeated parameters, `since` after `until` and an unknown ' +
            'service id are 400. The MCP tool `search_reviews` takes the same parameters.',
          parameters: searchParameters,
          responses: {
            '200': {
              description: 'OK',
              headers: readHeaders,
              content: { [CONTENT_TYPES.json]: { schema: ref('SearchResult') } },
            },
            '304': notModified,
            '400': errorResponse('invalid query parameters; `issues` names each one'),
          },
        },
      },
      [`${PATHS.since}/{date}`]: {
        get: {
          summary: 'Reviews dated on or after a date',
          parameters: [
            { name: 'date', in: 'path', required: true, schema: toSchema(IsoDateSchema) },
          ],
          responses: {
            '200': {
              description: 'OK',
              headers: readHeaders,
              content: { [CONTENT_TYPES.json]: { schema: ref('SinceResult') } },
            },
            '304': notModified,
            '400': errorResponse('malformed or impossible date'),
          },
        },
      },
      '/reviews/{id}/': {
        get: {
          summary: "A review's own HTML page (the record's `url`), with schema.org JSON-LD",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'OK',
              content: { [CONTENT_TYPES.html]: { schema: { type: 'string' } } },
            },
            '304': notModified,
            '404': { description: 'no such review' },
          },
        },
      },
      [PATHS.openapi]: readOperation('This document', 'OpenAPI 3.1.', CONTENT_TYPES.json, {
        type: 'object',
      }),
      [PATHS.llms]: readOperation(
        'Guide for AI agents',
        'Where the datasets, search and MCP endpoint are.',
        CONTENT_TYPES.text,
        { type: 'string' },
      ),
      [PATHS.mcp]: {
        post: {
          summary: 'MCP endpoint (JSON-RPC 2.0 over streamable HTTP)',
          description:
            'Model Context Protocol, protocol version 2025-06-18. `initialize` returns an `Mcp-Session-Id` header ' +
            'that later requests send back. Send `Accept: application/json, text/event-stream`.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          responses: { '200': { description: 'JSON-RPC response' } },
        },
      },
      [PATHS.hub]: {
        post: {
          summary: 'WebSub hub: subscribe, unsubscribe, publish',
          description: `Topics: ${TOPIC_PATHS.map((path) => `${siteUrl}${path}`).join(', ')}. Callbacks must be https.`,
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['hub.mode'],
                  properties: {
                    'hub.callback': { type: 'string', format: 'uri' },
                    'hub.mode': { enum: ['subscribe', 'unsubscribe', 'publish'] },
                    'hub.topic': { type: 'string', format: 'uri' },
                    'hub.lease_seconds': { type: 'string', pattern: '^[0-9]+$' },
                    'hub.secret': { type: 'string', maxLength: 199 },
                  },
                },
              },
            },
          },
          responses: {
            '202': { description: 'accepted; verification follows' },
            '400': { description: 'bad request (text/plain reason)' },
          },
        },
      },
    },
    components: {
      schemas: {
        ReviewsDataset: toSchema(ReviewsDatasetSchema),
        InsightsDataset: toSchema(InsightsDatasetSchema),
        SearchResult: toSchema(SearchResultSchema),
        SinceResult: toSchema(SinceResultSchema),
        Error: toSchema(ErrorBodySchema),
      },
    },
  };
}
