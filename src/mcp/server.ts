// createMcpServer: the MCP server with every tool and the dataset resources. Transport-free, so
// the HTTP handler (and tests) can make a fresh one per request.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpDeps } from './deps.ts';
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

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    {
      name: MCP_SERVER_NAME,
      title: `${deps.summary.business.name} reviews`,
      version: MCP_SERVER_VERSION,
    },
    {
      instructions: instructions(deps),
      capabilities: { tools: {}, resources: {}, logging: {} },
      jsonSchemaValidator: sharedValidator,
    },
  );
  for (const [, register] of TOOL_REGISTRARS) register(server, deps);
  for (const resource of deps.resources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri) => ({
        contents: [{ uri: uri.href, mimeType: resource.mimeType, text: resource.read() }],
      }),
    );
  }
  return server;
}
