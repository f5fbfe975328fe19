// search_reviews: GET /api/reviews/search's parameters and answers, through the same schema and
// index, plus a cursor to page past the first `limit` matches.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SearchParamsSchema, SearchResultSchema } from '../../core/search.ts';
import type { McpDeps } from '../deps.ts';
import { CursorSchema, decodeCursor, nextCursor } from '../paging.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';
import { pageText } from './review-text.ts';

const SearchPageResultSchema = SearchResultSchema.extend({
  next_cursor: z
    .string()
    .optional()
    .meta({ description: 'pass as cursor for the next page; absent on the last page' }),
});

export function registerSearchReviews(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'search_reviews',
    {
      title: 'Search reviews',
      description:
        'Search the verified reviews. Every argument is optional and they AND-combine; results are newest first. `total` counts all matches, `count` those returned (at most `limit`); `next_cursor` fetches the next page. The parameters and answers of GET /api/reviews/search, plus `cursor` and `next_cursor` (the HTTP search has no pages).',
      inputSchema: SearchParamsSchema.safeExtend({ cursor: CursorSchema.optional() }),
      outputSchema: SearchPageResultSchema,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ cursor, ...params }) =>
      runTool(
        () => {
          const question = { ...params, limit: undefined };
          const offset = decodeCursor(cursor, question);
          const { total, reviews } = deps.index.searchPage(params, offset);
          return {
            total,
            count: reviews.length,
            limit: params.limit,
            ...nextCursor(offset, reviews.length, total, question),
            reviews,
          };
        },
        (page) => pageText(`${String(page.count)} of ${String(page.total)} matching reviews`, page),
      ),
  );
}
