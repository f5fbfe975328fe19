// `/llms.txt`: a short guide for AI agents (llmstxt.org format) to the datasets, search and MCP.
import type { Business } from './review.ts';
import { FEED_SIZE } from './feeds.ts';
import { describeMcpProtocolVersions } from './mcp-protocol.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './search.ts';
import { PATHS, absoluteUrl } from './site.ts';

export interface LlmsTxtContext {
  siteUrl: string;
  business: Business;
  reviewCount: number;
}

export function renderLlmsTxt({ siteUrl, business, reviewCount }: LlmsTxtContext): string {
  const url = (path: string) => absoluteUrl(siteUrl, path);
  const services = business.services.map((service) => `\`${service.id}\``).join(', ');
  return `# ${business.name}: verified customer reviews

> Open, read-only data about the ${reviewCount} verified customer ${reviewCount === 1 ? 'review' : 'reviews'} of ${business.name}, a roofing business in ${business.address.locality}, ${business.address.region}. No key, no account, CORS open. Every review was checked against a job record, an invitation link, the platform or by hand.

## Datasets

- [Reviews dataset](${url(PATHS.reviews)}): business metadata, aggregate rating (with distribution) and every review, newest first.
- [Insights dataset](${url(PATHS.insights)}): aspect-based sentiment (ten aspects such as workmanship, cleanup, communication and price, with scores, trends and quotes), technicians, services and service areas with mention counts, average ratings and aspect breakdowns, recurring topics, an FAQ and a summary.
- [JSON Feed 1.1](${url(PATHS.jsonFeed)}) and [Atom feed](${url(PATHS.atomFeed)}): the ${FEED_SIZE} newest reviews.
- [OpenAPI 3.1 description](${url(PATHS.openapi)}): every endpoint and field.

## Search

- \`GET ${url(PATHS.search)}\` with optional \`rating\` (1-5, exact), \`min_rating\` (1-5), \`since\` and \`until\` (YYYY-MM-DD, inclusive), \`query\` (case- and accent-insensitive substring of text or title), \`mentions_technician\` (name, id or alias), \`mentions_service\` (one of ${services}), \`limit\` (1-${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}). Filters AND-combine; newest first; answer \`{total, count, limit, reviews}\`.
- \`GET ${url(PATHS.since)}/YYYY-MM-DD\`: every review dated on or after that day, \`{since, count, reviews}\`.
- Bad parameters answer 400 with \`{error, message, issues[]}\` naming each parameter.

## MCP

- [MCP endpoint](${url(PATHS.mcp)}): streamable HTTP, JSON-RPC 2.0, protocol ${describeMcpProtocolVersions()}, no key. Tools: \`get_business\`, \`search_reviews\` (the search parameters above), \`get_review\`, \`get_reviews_since\`, \`get_insights\`. Resources: the datasets and the full output schema of each tool. A bad argument answers a tool result with \`isError\` and \`Invalid arguments: <field>: <reason>\`.

## Updates

- WebSub hub at \`${url(PATHS.hub)}\` for the topics ${url(PATHS.atomFeed)}, ${url(PATHS.jsonFeed)} and ${url(PATHS.reviews)} (https callbacks).
`;
}
