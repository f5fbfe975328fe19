// `/openapi.json`: OpenAPI 3.1 for every endpoint, generated from the same zod schemas the server
// validates with, so the description cannot drift from the behaviour.
import { z } from 'zod';
import { ErrorBodySchema } from './errors.ts';
import { InsightsDatasetSchema } from './insights/dataset-schema.ts';
import { ReviewSchema, ReviewsDatasetSchema, type Business } from './review.ts';
import { SearchParamsSchema, SearchResultSchema, SinceResultSchema } from './search.ts';
import { CONTENT_TYPES, PATHS, TOPIC_PATHS } from './site.ts';
import { IsoDateSchema } from './dates.ts';
import { describeMcpProtocolVersions } from './mcp-protocol.ts';

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
  ETag: header(
    'strong validator: a hash of the published content (for search and since, with the canonical parameters); the same content and request give the same value',
  ),
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
/** Every path answers 400 to a request it cannot read (a malformed Host, a bad percent-encoding). */
const unreadable = errorResponse(
  'the request could not be read (for example a malformed Host header or percent-encoding)',
);
const textResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { [CONTENT_TYPES.text]: { schema: { type: 'string' } } },
});
const retryAfter = { 'Retry-After': header('seconds to wait before trying again') };
const jsonRpcError = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema: ref('JsonRpcErrorResponse') } },
});
const notModified = {
  description: 'the validator matched (If-None-Match or If-Modified-Since); empty body',
  headers: readHeaders,
};
const preconditionFailed = errorResponse(
  'If-Match named no current ETag (strong comparison), or the representation was modified after If-Unmodified-Since',
);

function readOperation(
  operationId: string,
  summary: string,
  description: string,
  contentType: string,
  schema: JsonSchema,
  isTopic = false,
) {
  return {
    get: {
      operationId,
      summary,
      description,
      responses: {
        '200': {
          description: 'OK',
          headers: isTopic ? topicHeaders : readHeaders,
          content: { [contentType]: { schema } },
        },
        '304': notModified,
        '412': preconditionFailed,
        '400': unreadable,
      },
    },
  };
}

/** GET /healthz's body. */
function healthSchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'reviews', 'store'],
    properties: {
      status: { enum: ['ok', 'unavailable'] },
      reviews: { type: 'integer', minimum: 0, description: 'reviews published by this build' },
      store: {
        description: "the WebSub hub's store (null when the server runs without a hub)",
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            additionalProperties: false,
            required: ['store', 'ok'],
            properties: {
              store: { enum: ['sqlite', 'postgres'] },
              ok: { type: 'boolean' },
              detail: { type: 'string', description: 'why the store does not answer' },
            },
          },
        ],
      },
    },
  };
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1) as this service writes it. */
function jsonFeedSchema(): JsonSchema {
  const author = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      avatar: { type: 'string', format: 'uri' },
    },
  };
  const review = toSchema(
    ReviewSchema.pick({
      rating: true,
      technicians: true,
      service_ids: true,
      verification: true,
    }).extend({
      about: z.string().meta({ description: 'this document, which describes the extension' }),
    }),
  );
  return {
    type: 'object',
    required: ['version', 'title', 'items'],
    properties: {
      version: { type: 'string', const: 'https://jsonfeed.org/version/1.1' },
      title: { type: 'string' },
      home_page_url: { type: 'string', format: 'uri' },
      feed_url: { type: 'string', format: 'uri' },
      description: { type: 'string' },
      icon: { type: 'string', format: 'uri' },
      favicon: { type: 'string', format: 'uri' },
      authors: { type: 'array', items: author },
      language: { type: 'string' },
      hubs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'url'],
          properties: { type: { type: 'string' }, url: { type: 'string', format: 'uri' } },
        },
      },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string' },
            url: { type: 'string', format: 'uri' },
            external_url: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            content_html: { type: 'string' },
            content_text: { type: 'string' },
            summary: { type: 'string' },
            image: { type: 'string', format: 'uri' },
            banner_image: { type: 'string', format: 'uri' },
            date_published: { type: 'string', format: 'date-time' },
            date_modified: { type: 'string', format: 'date-time' },
            authors: { type: 'array', items: author },
            tags: { type: 'array', items: { type: 'string' } },
            language: { type: 'string' },
            _review: {
              ...review,
              description: "the review's rating, technicians, services and verification",
            },
          },
        },
      },
    },
  };
}

/** The outline of an OpenAPI 3.1 document, enough for generated clients to read this one. */
function openApiDocumentSchema(): JsonSchema {
  const map = {
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: true },
  };
  return {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', description: 'OpenAPI version, 3.1.x' },
      info: {
        type: 'object',
        required: ['title', 'version'],
        properties: {
          title: { type: 'string' },
          version: { type: 'string' },
          description: { type: 'string' },
          license: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, identifier: { type: 'string' } },
          },
        },
      },
      servers: {
        type: 'array',
        items: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
      },
      security: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
      paths: { ...map, description: 'path → Path Item Object' },
      components: {
        type: 'object',
        properties: { schemas: { ...map, description: 'name → Schema Object' } },
      },
    },
  };
}

const jsonRpcId = { anyOf: [{ type: 'string' }, { type: 'integer' }] };

function jsonRpcSchemas(): Record<string, JsonSchema> {
  return {
    JsonRpcRequest: {
      type: 'object',
      description: 'a JSON-RPC 2.0 request (with `id`) or notification (without)',
      required: ['jsonrpc', 'method'],
      properties: {
        jsonrpc: { type: 'string', const: '2.0' },
        id: jsonRpcId,
        method: { type: 'string', examples: ['initialize', 'tools/list', 'tools/call'] },
        params: { type: 'object', additionalProperties: true },
      },
    },
    JsonRpcResponse: {
      type: 'object',
      description:
        'the answer to a request: `result`, or `error` (a tool error is a result with `isError`)',
      required: ['jsonrpc', 'id'],
      properties: {
        jsonrpc: { type: 'string', const: '2.0' },
        id: jsonRpcId,
        result: { type: 'object', additionalProperties: true },
        error: ref('JsonRpcError'),
      },
    },
    JsonRpcErrorResponse: {
      type: 'object',
      required: ['jsonrpc', 'id', 'error'],
      properties: {
        jsonrpc: { type: 'string', const: '2.0' },
        id: { anyOf: [...jsonRpcId.anyOf, { type: 'null' }] },
        error: ref('JsonRpcError'),
      },
    },
    JsonRpcError: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'integer',
          description:
            '-32700 parse error, -32600 invalid request, -32602 invalid params or unknown tool, -32000 transport, -32001 session not found',
        },
        message: { type: 'string' },
        data: {},
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
        'read endpoint supports conditional GET (ETag, Last-Modified) and HEAD, and sends CORS headers. ' +
        "Each review's `url` is its own HTML page (`/reviews/{id}/`, with schema.org JSON-LD); `/reviews/{id}` " +
        'redirects there.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: siteUrl }],
    // Public: no key, no account.
    security: [],
    paths: {
      [PATHS.reviews]: readOperation(
        'getReviewsDataset',
        'Reviews dataset',
        'Business metadata, aggregate rating and every verified review, newest first.',
        CONTENT_TYPES.json,
        ref('ReviewsDataset'),
        isTopic(PATHS.reviews),
      ),
      [PATHS.insights]: readOperation(
        'getInsightsDataset',
        'Insights dataset',
        'Aspect-based sentiment, entities (technicians, services, service areas), topics, FAQ and summary.',
        CONTENT_TYPES.json,
        ref('InsightsDataset'),
      ),
      [PATHS.jsonFeed]: readOperation(
        'getJsonFeed',
        'JSON Feed 1.1 of the 50 newest reviews (WebSub topic)',
        'See https://jsonfeed.org/version/1.1; each item carries a `_review` extension.',
        CONTENT_TYPES.json,
        ref('JsonFeed'),
        true,
      ),
      [PATHS.atomFeed]: readOperation(
        'getAtomFeed',
        'Atom feed of the 50 newest reviews (WebSub topic)',
        'RFC 4287 Atom with rel="self" and rel="hub" links.',
        CONTENT_TYPES.atom,
        { type: 'string' },
        true,
      ),
      [PATHS.search]: {
        get: {
          operationId: 'searchReviews',
          summary: 'Search reviews',
          description:
            'Filters AND-combine; results are newest first (date desc, then id). `total` counts every match, ' +
            '`count` those returned. Unknown or repeated parameters, `since` after `until` and an unknown ' +
            'service id are 400. At most `limit` (up to 100) reviews are returned: to read further, narrow ' +
            'the filters (an earlier `until`) or read `/reviews.json`, which holds every review. The MCP ' +
            'tool `search_reviews` takes the same parameters plus a `cursor`, and its answers carry ' +
            '`next_cursor` to page past `limit`.',
          parameters: searchParameters,
          responses: {
            '200': {
              description: 'OK',
              headers: readHeaders,
              content: { [CONTENT_TYPES.json]: { schema: ref('SearchResult') } },
            },
            '304': notModified,
            '412': preconditionFailed,
            '400': errorResponse(
              'invalid query parameters (`issues` names each one), or a request that could not be read',
            ),
          },
        },
      },
      [`${PATHS.since}/{date}`]: {
        get: {
          operationId: 'getReviewsSince',
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
            '412': preconditionFailed,
            '400': errorResponse(
              'malformed or impossible date, any query parameter (this operation takes none), or a request that could not be read',
            ),
          },
        },
      },
      [PATHS.openapi]: readOperation(
        'getOpenApiDocument',
        'This document',
        'OpenAPI 3.1.',
        CONTENT_TYPES.json,
        ref('OpenApiDocument'),
      ),
      [PATHS.llms]: readOperation(
        'getLlmsTxt',
        'Guide for AI agents',
        'Where the datasets, search and MCP endpoint are.',
        CONTENT_TYPES.text,
        { type: 'string' },
      ),
      [PATHS.mcp]: {
        description:
          'Only POST (and the OPTIONS preflight): GET and DELETE answer 405 with `Allow: POST, OPTIONS`, as there is no server-sent stream and no session to delete.',
        post: {
          operationId: 'postMcpMessage',
          summary: 'MCP endpoint (JSON-RPC 2.0 over streamable HTTP)',
          description:
            `Model Context Protocol, protocol version ${describeMcpProtocolVersions()}. ` +
            '`initialize` returns an `Mcp-Session-Id` header that later requests send back. Send ' +
            '`Accept: application/json, text/event-stream`; answers are JSON. One message per request.',
          parameters: [
            {
              name: 'Mcp-Session-Id',
              in: 'header',
              required: false,
              description: 'required on every request after `initialize`',
              schema: { type: 'string' },
            },
            {
              name: 'MCP-Protocol-Version',
              in: 'header',
              required: false,
              description: 'the negotiated protocol version',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('JsonRpcRequest') } },
          },
          responses: {
            '200': {
              description: 'the JSON-RPC response to a request',
              headers: { 'Mcp-Session-Id': header('on the answer to `initialize`') },
              content: { 'application/json': { schema: ref('JsonRpcResponse') } },
            },
            '202': { description: 'a notification or response was accepted; empty body' },
            '400': jsonRpcError(
              'not JSON (-32700); an empty batch, a batch from protocol 2025-06-18 on, or over 10 messages (-32600); no `Mcp-Session-Id` after initialize; or a malformed Host',
            ),
            '403': jsonRpcError('a browser Origin that is not allowed'),
            '404': jsonRpcError('unknown or expired session (-32001); initialize again'),
            '406': jsonRpcError('Accept does not list application/json and text/event-stream'),
            '413': jsonRpcError('body over 64 KiB'),
            '415': jsonRpcError('Content-Type is not application/json'),
            '429': jsonRpcError(
              'more than MCP_RATE_LIMIT_PER_MINUTE messages from this client in a minute',
              retryAfter,
            ),
            '500': jsonRpcError('an unexpected error (-32603); nothing about it is disclosed'),
          },
        },
      },
      [PATHS.hub]: {
        post: {
          operationId: 'postHubRequest',
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
                    'hub.url': {
                      type: 'string',
                      format: 'uri',
                      description: 'publish: the topic, as an alternative to hub.topic',
                    },
                    'hub.lease_seconds': { type: 'string', pattern: '^0*[1-9][0-9]*$' },
                    'hub.secret': { type: 'string', maxLength: 199 },
                  },
                },
              },
            },
          },
          responses: {
            '202': textResponse('accepted; verification (or, on publish, delivery) follows'),
            '400': textResponse('a missing, repeated or invalid field, or a refused callback'),
            '403': textResponse('the callback host already has the most subscriptions allowed'),
            '405': textResponse('not POST', { Allow: header('POST, OPTIONS') }),
            '413': textResponse('body over 16 KiB'),
            '415': textResponse('Content-Type is not application/x-www-form-urlencoded'),
            '429': textResponse(
              'too many requests from this address or for this callback',
              retryAfter,
            ),
            '503': textResponse(
              "the hub's store is locked or unreachable, or the callback's host could not be looked up for now; nothing was recorded",
              retryAfter,
            ),
          },
        },
      },
      [PATHS.health]: {
        get: {
          operationId: 'getHealth',
          summary: 'Liveness and the WebSub hub store',
          description:
            'For load balancers and orchestrators: 200 while the hub store answers, 503 when it does not. Never cached.',
          responses: {
            '200': {
              description: 'the server and its hub store answer',
              content: { [CONTENT_TYPES.json]: { schema: ref('Health') } },
            },
            '400': unreadable,
            '503': {
              description: 'the hub store does not answer',
              content: { [CONTENT_TYPES.json]: { schema: ref('Health') } },
            },
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
        JsonFeed: jsonFeedSchema(),
        OpenApiDocument: openApiDocumentSchema(),
        ...jsonRpcSchemas(),
        Error: toSchema(ErrorBodySchema),
        Health: healthSchema(),
      },
    },
  };
}
