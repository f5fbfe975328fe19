// createMcpServer: the MCP server with every tool and the dataset resources. Transport-free, so
// the HTTP handler (and tests) can make a fresh one per request.
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { z } from 'zod';
import { argumentIssues, describeIssues, toIssues } from '../core/errors.ts';
import type { McpDeps } from './deps.ts';
import { toolError } from './tool-result.ts';
import { listedOutputSchema, outputSchemaResourceUri, toolJsonSchema } from './tool-schemas.ts';
import { registerGetBusiness } from './tools/get-business.ts';
import { registerGetInsights } from './tools/get-insights.ts';
import { registerGetReview } from './tools/get-review.ts';
import { registerGetReviewsSince } from './tools/get-reviews-since.ts';
import { registerSearchReviews } from './tools/search-reviews.ts';

export const MCP_SERVER_NAME = 'roofing-reviews';
export const MCP_SERVER_VERSION = '1.0.0';

export const TOOL_REGISTRARS = [
  ['get_business', registerGetBusiness],
  ['search_reviews', registerSearchReviews],
  ['get_review', registerGetReview],
  ['get_reviews_since', registerGetReviewsSince],
  ['get_insights', registerGetInsights],
] as const;

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOL_REGISTRARS.map(([name]) => name));

function instructions(deps: McpDeps): string {
  const { business, aggregate_rating: rating } = deps.summary;
  return [
    `Verified customer reviews of ${business.name}, a roofing business in ${business.address.locality}, ${business.address.region}: ${rating.review_count} reviews, average ${rating.rating_value ?? 'n/a'} of 5.`,
    'Read-only and public. Use get_business for the business, its services (ids), technicians and rating distribution;',
    'search_reviews to find reviews by rating, date range, text, technician or service (the same as GET /api/reviews/search);',
    'get_review for one review by id; get_reviews_since for everything since a date; get_insights for technicians, services,',
    `service areas, aspect sentiment (workmanship, cleanup, communication, price…), topics, FAQ and summary. Every review cites its own page in \`url\`. Datasets: ${deps.siteUrl}/reviews.json, ${deps.siteUrl}/insights.json.`,
  ].join(' ');
}

// The SDK builds an Ajv instance per server for elicitation, which this server never uses; one
// shared validator keeps a fresh server per request cheap.
const sharedValidator = new AjvJsonSchemaValidator();

/** What the server really offers: no list-changed notifications (the set never changes, and GET is 405). */
export const MCP_CAPABILITIES: ServerCapabilities = { tools: {}, resources: {}, logging: {} };

interface ToolSchemas {
  listing: Tool[];
  /** Full output schemas, by tool name, as served by the schema resources. */
  outputSchemas: Map<string, Record<string, unknown>>;
}

// The schemas never change for one published site; a fresh server per request reuses them.
const schemasByDeps = new WeakMap<McpDeps, ToolSchemas>();

function schemasOf(deps: McpDeps, tools: ReadonlyMap<string, RegisteredTool>): ToolSchemas {
  const known = schemasByDeps.get(deps);
  if (known) return known;
  const outputSchemas = new Map<string, Record<string, unknown>>();
  const listing = [...tools].map(([name, tool]): Tool => {
    const listed: Tool = {
      name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool.inputSchema as z.ZodType, 'input') as Tool['inputSchema'],
      annotations: tool.annotations,
    };
    if (tool.outputSchema) {
      const full = toolJsonSchema(tool.outputSchema as z.ZodType, 'output');
      outputSchemas.set(name, full);
      listed.outputSchema = listedOutputSchema(name, full) as Tool['outputSchema'];
    }
    return listed;
  });
  const schemas = { listing, outputSchemas };
  schemasByDeps.set(deps, schemas);
  return schemas;
}

/** No single MCP answer (one tool result or one resource) is larger than this. */
export const MCP_ANSWER_MAX_BYTES = 1024 * 1024;
/** A tool's text block repeats its JSON up to this size; a larger result gets a summary instead. */
export const TEXT_MIRROR_MAX_BYTES = 8 * 1024;
/** The first protocol version whose clients read structuredContent. */
const STRUCTURED_CONTENT_SINCE = '2025-06-18';

/** What createMcpServer knows about the request it answers. */
export interface McpRequestOptions {
  /** The negotiated MCP-Protocol-Version; without one a client is taken to speak 2025-03-26. */
  protocolVersion?: string | undefined;
}

/**
 * Bounds a successful result and picks its text block: the JSON when small (or when the client
 * predates structured content and reads only text), else the tool's summary.
 */
export function shapeResult(result: CallToolResult, legacyClient: boolean): CallToolResult {
  if (result.isError || result.structuredContent === undefined) return result;
  const json = JSON.stringify(result.structuredContent);
  const bytes = Buffer.byteLength(json);
  if (bytes > MCP_ANSWER_MAX_BYTES)
    return toolError(
      `Invalid arguments: the answer would be ${bytes} bytes, over the ${MCP_ANSWER_MAX_BYTES}-byte limit of one answer; ask for less (a smaller limit, or one section)`,
    );
  if (legacyClient || bytes <= TEXT_MIRROR_MAX_BYTES)
    return { ...result, content: [{ type: 'text', text: json }] };
  return result;
}

type ToolHandler = (args: unknown, extra: unknown) => CallToolResult | Promise<CallToolResult>;

/**
 * tools/call with one form for every argument error, whether the schema or the tool finds it: a
 * tool result with isError and "Invalid arguments: <field>: <reason>; …", which the model can read
 * and correct. An unknown tool is a JSON-RPC -32602 error. A result that breaks its own output
 * schema is a server bug and answers a JSON-RPC internal error.
 */
function installToolHandlers(
  server: McpServer,
  listing: readonly Tool[],
  tools: ReadonlyMap<string, RegisteredTool>,
  legacyClient: boolean,
): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = tools.get(name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${name}; tools: ${[...tools.keys()].join(', ')}`,
      );
    const parsed = await (tool.inputSchema as z.ZodType).safeParseAsync(args ?? {});
    if (!parsed.success)
      return toolError(`Invalid arguments: ${describeIssues(argumentIssues(parsed.error))}`);
    const result = await (tool.handler as ToolHandler)(parsed.data, extra);
    if (!result.isError && tool.outputSchema) {
      const checked = (tool.outputSchema as z.ZodType).safeParse(result.structuredContent);
      if (!checked.success)
        throw new McpError(
          ErrorCode.InternalError,
          `${name} produced a result outside its output schema: ${describeIssues(toIssues(checked.error))}`,
        );
    }
    return shapeResult(result, legacyClient);
  });
}

export function createMcpServer(deps: McpDeps, options: McpRequestOptions = {}): McpServer {
  const legacyClient = (options.protocolVersion ?? '2025-03-26') < STRUCTURED_CONTENT_SINCE;
  const server = new McpServer(
    {
      name: MCP_SERVER_NAME,
      title: `${deps.summary.business.name} reviews`,
      version: MCP_SERVER_VERSION,
    },
    {
      instructions: instructions(deps),
      capabilities: MCP_CAPABILITIES,
      jsonSchemaValidator: sharedValidator,
    },
  );
  const tools = new Map(TOOL_REGISTRARS.map(([name, register]) => [name, register(server, deps)]));
  const schemas = schemasOf(deps, tools);
  installToolHandlers(server, schemas.listing, tools, legacyClient);
  for (const resource of deps.resources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri) => {
        if (resource.size > MCP_ANSWER_MAX_BYTES)
          throw new McpError(
            ErrorCode.InvalidParams,
            `${resource.uri} is ${resource.size} bytes, over the ${MCP_ANSWER_MAX_BYTES}-byte limit of one MCP answer: fetch it over HTTP, or page through it with search_reviews or get_reviews_since`,
          );
        return {
          contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.read() }],
        };
      },
    );
  }
  for (const [name, schema] of schemas.outputSchemas) {
    const text = JSON.stringify(schema);
    server.registerResource(
      `${name}-output-schema`,
      outputSchemaResourceUri(name),
      {
        title: `${name} output schema`,
        description: `The full JSON Schema of ${name}'s structured result (tools/list may show it briefly).`,
        mimeType: 'application/schema+json',
      },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/schema+json', text }] }),
    );
  }
  // McpServer marks tools and resources as listChanged when they are registered; the low-level
  // server keeps its capabilities in a field with no public setter, so they are restated here.
  (server.server as unknown as { _capabilities: ServerCapabilities })._capabilities = {
    ...MCP_CAPABILITIES,
  };
  return server;
}
