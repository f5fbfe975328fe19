// The reviews dataset (`/reviews.json`, DECISIONS §4): business, aggregate rating, reviews newest first.
import {
  computeAggregateRating,
  type Business,
  type Review,
  type ReviewsDataset,
} from './review.ts';

export function buildReviewsDataset(
  business: Business,
  reviews: readonly Review[],
): ReviewsDataset {
  return {
    schema_version: '1.0.0',
    business,
    aggregate_rating: computeAggregateRating(reviews),
    reviews: [...reviews],
  };
}
