// get_reviews_since: the reviews dated on or after a date, newest first, a page at a time.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { IsoDateSchema } from '../../core/dates.ts';
import { ReviewSchema } from '../../core/review.ts';
import type { McpDeps } from '../deps.ts';
import { CursorSchema, PageLimitSchema, decodeCursor, nextCursor } from '../paging.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';
import { pageText } from './review-text.ts';

export const SincePageSchema = z.object({
  since: IsoDateSchema,
  total: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'reviews dated on or after since, in all' }),
  count: z.number().int().nonnegative().meta({ description: 'reviews on this page' }),
  limit: z.number().int().nonnegative(),
  next_cursor: z
    .string()
    .optional()
    .meta({ description: 'pass as cursor for the next page; absent on the last page' }),
  reviews: z
    .array(ReviewSchema)
    .meta({ description: 'reviews dated on or after since, newest first' }),
});

export function registerGetReviewsSince(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'get_reviews_since',
    {
      title: 'Get reviews since a date',
      description:
        'Verified reviews dated on or after `date` (YYYY-MM-DD), newest first, `limit` per page; `total` counts them all and `next_cursor` fetches the next page. GET /api/reviews/since/{date} returns them all at once.',
      inputSchema: z
        .object({
          date: IsoDateSchema.describe('YYYY-MM-DD, inclusive'),
          limit: PageLimitSchema,
          cursor: CursorSchema.optional(),
        })
        .strict(),
      outputSchema: SincePageSchema,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ date, limit, cursor }) =>
      runTool(
        () => {
          const offset = decodeCursor(cursor, { date });
          const { total, reviews } = deps.index.sincePage(date, offset, limit);
          return {
            since: date,
            total,
            count: reviews.length,
            limit,
            ...nextCursor(offset, reviews.length, total, { date }),
            reviews,
          };
        },
        (page) =>
          pageText(
            `${String(page.count)} of ${String(page.total)} reviews dated on or after ${date}`,
            page,
          ),
      ),
  );
}
