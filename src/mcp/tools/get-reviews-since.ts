// get_reviews_since: every review dated on or after a date, as GET /api/reviews/since/{date}.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { IsoDateSchema } from '../../core/dates.ts';
import { SinceResultSchema } from '../../core/search.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

export function registerGetReviewsSince(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'get_reviews_since',
    {
      title: 'Get reviews since a date',
      description:
        'Every verified review dated on or after `date` (YYYY-MM-DD), newest first. Same answer as GET /api/reviews/since/{date}.',
      inputSchema: z.object({ date: IsoDateSchema.describe('YYYY-MM-DD, inclusive') }).strict(),
      outputSchema: SinceResultSchema,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ date }) => runTool(() => deps.index.since(date)),
  );
}
