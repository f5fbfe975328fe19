import { expect, test } from 'vitest';
import { computeAggregateRating } from './review.ts';

const ratings = (...values: number[]) => values.map((rating) => ({ rating }));

test('aggregate rating is the mean to 2 decimals with a distribution that sums to the count', () => {
  const aggregate = computeAggregateRating(ratings(5, 5, 4, 1, 3, 5));
  expect(aggregate).toEqual({
    rating_value: 3.83,
    review_count: 6,
    best_rating: 5,
    worst_rating: 1,
    distribution: { '1': 1, '2': 0, '3': 1, '4': 1, '5': 3 },
  });
  const sum = Object.values(aggregate.distribution).reduce((a, b) => a + b, 0);
  expect(sum).toBe(aggregate.review_count);
});

test('aggregate rating of no reviews has a null value and an all-zero distribution', () => {
  expect(computeAggregateRating([])).toEqual({
    rating_value: null,
    review_count: 0,
    best_rating: 5,
    worst_rating: 1,
    distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
  });
});

test('aggregate rating rounds half up at the second decimal', () => {
  expect(computeAggregateRating(ratings(5, 4, 4)).rating_value).toBe(4.33);
  expect(computeAggregateRating(ratings(5, 5, 4)).rating_value).toBe(4.67);
  expect(computeAggregateRating(ratings(4, 5)).rating_value).toBe(4.5);
});
