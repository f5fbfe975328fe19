// get_business: business metadata and the aggregate rating with its distribution.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  AggregateRatingSchema,
  BusinessSchema,
  type AggregateRating,
  type Business,
} from '../../core/review.ts';
import type { McpDeps } from '../deps.ts';
import { READ_ONLY_ANNOTATIONS, runTool } from '../tool-result.ts';

/**
 * The text of a get_business answer too large to repeat as JSON: who the business is, its rating,
 * and the ids and names a client needs to ask further (services, technicians, areas).
 */
export function summarizeBusiness(business: Business, rating: AggregateRating): string {
  const where = ` (${business.address.locality}, ${business.address.region})`;
  const stars = (['5', '4', '3', '2', '1'] as const)
    .map((star) => `${star} star${star === '1' ? '' : 's'} ${rating.distribution[star]}`)
    .join(', ');
  const parts = [
    rating.rating_value === null
      ? `${business.name}${where}: no verified reviews yet.`
      : `${business.name}${where}: rated ${rating.rating_value} of 5 by ${rating.review_count} verified reviews (${stars}).`,
    `Services (id: name): ${business.services.map((s) => `${s.id}: ${s.name}`).join(', ')}.`,
  ];
  if (business.technicians.length > 0)
    parts.push(
      `Technicians: ${business.technicians.map((t) => (t.role ? `${t.name} (${t.role})` : t.name)).join(', ')}.`,
    );
  if (business.service_areas.length > 0)
    parts.push(`Service areas: ${business.service_areas.map((a) => a.name).join(', ')}.`);
  const contact = [business.contact.phone, business.contact.email, business.contact.website];
  if (contact.some(Boolean)) parts.push(`Contact: ${contact.filter(Boolean).join(', ')}.`);
  parts.push('All of it, with hours, licenses and descriptions, is in structuredContent.');
  return parts.join(' ');
}

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
      runTool(
        () => ({
          business: deps.summary.business,
          aggregate_rating: deps.summary.aggregate_rating,
        }),
        () => summarizeBusiness(deps.summary.business, deps.summary.aggregate_rating),
      ),
  );
}
