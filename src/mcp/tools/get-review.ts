// get_review: one review by its id.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ReviewSchema, SlugSchema } from '../../core/review.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool, toolError } from '../tool-result.ts';

export function registerGetReview(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'get_review',
    {
      title: 'Get review',
      description:
        'One verified review by its id (the `id` field of a review, e.g. from search_reviews).',
      inputSchema: z.object({ id: SlugSchema.max(200).describe('review id, kebab-case') }).strict(),
      outputSchema: z.object({ review: ReviewSchema }),
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ id }) => {
      const review = deps.index.getReview(id);
      if (!review)
        return toolError(`Invalid arguments: id: no published review has the id "${id}"`);
      return runTool(() => ({ review }));
    },
  );
}
