// get_business: business metadata and the aggregate rating with its distribution.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AggregateRatingSchema, BusinessSchema } from '../../core/review.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

export function registerGetBusiness(server: McpServer, deps: McpDeps): RegisteredTool {
  return server.registerTool(
    'get_business',
    {
      title: 'Get business',
      description:
        'The roofing business: name, address, hours, services (with the ids search_reviews accepts), technicians (with aliases), service areas, licenses and certifications, plus the aggregate rating of its verified reviews with the count per star.',
      inputSchema: z.object({}).strict(),
      outputSchema: z.object({ business: BusinessSchema, aggregate_rating: AggregateRatingSchema }),
      annotations: READ_ONLY_ANNOTATIONS,
    },
    () =>
      runTool(() => ({
        business: deps.summary.business,
        aggregate_rating: deps.summary.aggregate_rating,
      })),
  );
}
