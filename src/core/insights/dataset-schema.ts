// The shape of the insights dataset (`/insights.json`), apart from the code that computes it, so that
// the server, the OpenAPI document and the MCP tool can validate and describe it without loading
// the aspect model or the NLP pipeline.
import { z } from 'zod';
import { AspectsSchema } from './aspect-stats.ts';
import { FaqSchema } from './editorial.ts';
import { EntitiesSchema } from './entities.ts';
import { ComputedSummarySchema } from './summary.ts';
import { TopicSchema } from './topics.ts';

export const INSIGHTS_SECTIONS = ['aspects', 'entities', 'topics', 'faq', 'summary'] as const;

export const InsightsDatasetSchema = z.object({
  schema_version: z.literal('1.1.0'),
  business_name: z.string(),
  review_count: z.number().int().nonnegative(),
  aspects: AspectsSchema,
  entities: EntitiesSchema,
  topics: z.array(TopicSchema).meta({ description: 'recurring phrases of the reviews, grouped' }),
  faq: FaqSchema,
  summary: ComputedSummarySchema,
});

export type InsightsDataset = z.infer<typeof InsightsDatasetSchema>;
