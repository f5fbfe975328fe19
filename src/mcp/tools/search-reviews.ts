// search_reviews: exactly GET /api/reviews/search, through the same schema and index.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SearchParamsSchema, SearchResultSchema } from '../../core/search.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

export function registerSearchReviews(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'search_reviews',
    {
      title: 'Search reviews',
      description:
        'Search the verified reviews. Every argument is optional and they AND-combine; results are newest first. `total` counts all matches, `count` those returned (at most `limit`). Same parameters and answers as GET /api/reviews/search.',
      inputSchema: SearchParamsSchema,
      outputSchema: SearchResultSchema,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    (params) => runTool(() => deps.index.search(params)),
  );
}
