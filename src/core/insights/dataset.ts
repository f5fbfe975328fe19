// The insights dataset (`/insights.json`): entities computed from the published reviews plus the
// owner's FAQ and summary. Aspect sentiment and topics join it in a later issue.
import { z } from 'zod';
import type { Business, Review } from '../review.ts';
import { EntitiesSchema, computeEntities } from './entities.ts';
import { FaqSchema, SummarySchema, type InsightsEditorial } from './editorial.ts';

export const INSIGHTS_SECTIONS = ['entities', 'faq', 'summary'] as const;

export const InsightsDatasetSchema = z.object({
  schema_version: z.literal('1.0.0'),
  business_name: z.string(),
  review_count: z.number().int(),
  entities: EntitiesSchema,
  faq: FaqSchema,
  summary: SummarySchema,
});

export type InsightsDataset = z.infer<typeof InsightsDatasetSchema>;

export function buildInsights(
  business: Business,
  reviews: readonly Review[],
  editorial: InsightsEditorial,
): InsightsDataset {
  return {
    schema_version: '1.0.0',
    business_name: business.name,
    review_count: reviews.length,
    entities: computeEntities(business, reviews),
    faq: editorial.faq,
    summary: editorial.summary,
  };
}
