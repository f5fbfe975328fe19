// get_review: one review by its id.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ReviewSchema, SlugSchema, type Review } from '../../core/review.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool, toolError } from '../tool-result.ts';
import { reviewHeading } from './review-text.ts';

/**
 * The text of a get_review answer too large to repeat as JSON: the review as a person reads it,
 * its text and the owner's reply whole (they are the answer), its other fields left to
 * structuredContent.
 */
export function summarizeReview(review: Review): string {
  const lines = [
    reviewHeading(review),
    ...(review.title === null ? [] : [review.title]),
    review.text,
  ];
  if (review.owner_reply)
    lines.push(`The owner replied on ${review.owner_reply.date}: ${review.owner_reply.text}`);
  lines.push(
    `Every field of the review, its page at ${review.url} among them, is in structuredContent.`,
  );
  return lines.join('\n\n');
}

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
      return runTool(
        () => ({ review }),
        () => summarizeReview(review),
      );
    },
  );
}
