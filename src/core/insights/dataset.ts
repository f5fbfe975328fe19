// The insights dataset (`/insights.json`): aspect-based sentiment, entities and topics computed
// from the published reviews with the owner's lexicon, plus the owner's FAQ and a summary.
// Pure: the same reviews, editorial and lexicon give the same bytes (no clock, no I/O).
import type { Business, Review } from '../review.ts';
import { analyzeReviews, type ReviewAnalysis } from './analysis.ts';
import type { AspectModel } from './model/aspect-model.ts';
import { defaultAspectModel } from './model/default-model.ts';
import { computeAspects } from './aspect-stats.ts';
import type { InsightsDataset } from './dataset-schema.ts';
import type { InsightsEditorial } from './editorial.ts';
import { computeEntities } from './entities.ts';
import { EMPTY_LEXICON, type Lexicon } from './lexicon.ts';
import { computeSummary } from './summary.ts';
import { analyzeReviewsInParallel, type ParallelOptions } from './parallel-analysis.ts';
import { computeTopics } from './topics.ts';

/** Words that must not make a topic: opinions are not topics. */
function topicExclusions(lexicon: Lexicon): Set<string> {
  const words = new Set<string>();
  for (const phrase of [...lexicon.polarity.positive, ...lexicon.polarity.negative])
    if (/^[a-z]+$/.test(phrase)) words.add(phrase);
  return words;
}

/** Names of people and places, which are entities, not topics. */
function entityNames(business: Business): string[] {
  return [
    ...business.technicians.flatMap((t) => [t.name, ...(t.aliases ?? [])]),
    ...business.service_areas.map((area) => area.name),
  ];
}

/**
 * The insights dataset. Aspects come from the shipped model with the owner's lexicon
 * (content/insights/lexicon.json) on top; without a lexicon the model finds them alone. With
 * `model: null` the lexicon decides alone (and without one no aspect is found).
 */
export function buildInsights(
  business: Business,
  reviews: readonly Review[],
  editorial: InsightsEditorial,
  lexicon: Lexicon = EMPTY_LEXICON,
  model: AspectModel | null = defaultAspectModel(),
): InsightsDataset {
  return insightsOf(business, editorial, lexicon, analyzeReviews(reviews, lexicon, model));
}

/**
 * `buildInsights` with the shipped model, its reading of the reviews spread over up to `threads`
 * threads (default: one per core, at most four): the same dataset, sooner when there are many
 * reviews.
 */
export async function buildInsightsInParallel(
  business: Business,
  reviews: readonly Review[],
  editorial: InsightsEditorial,
  lexicon: Lexicon = EMPTY_LEXICON,
  options: Pick<ParallelOptions, 'threads'> = {},
): Promise<InsightsDataset> {
  const analyses = await analyzeReviewsInParallel(reviews, lexicon, options);
  return insightsOf(business, editorial, lexicon, analyses);
}

function insightsOf(
  business: Business,
  editorial: InsightsEditorial,
  lexicon: Lexicon,
  analyses: readonly ReviewAnalysis[],
): InsightsDataset {
  const aspects = computeAspects(analyses);
  return {
    schema_version: '1.1.0',
    business_name: business.name,
    review_count: analyses.length,
    aspects,
    entities: computeEntities(business, analyses),
    topics: computeTopics(
      analyses,
      topicExclusions(lexicon),
      business.services,
      business.name,
      entityNames(business),
    ),
    faq: editorial.faq,
    summary: computeSummary(aspects, analyses.length, editorial.summary),
  };
}
