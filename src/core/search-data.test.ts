import { expect, test } from 'vitest';
import { computeAggregateRating, type Business, type Review } from './review.ts';
import { serializeReviewsDataset } from './reviews-dataset.ts';
import { buildSearchData, searchableParts } from './search-data.ts';

const business: Business = {
  name: 'Test & Co',
  contact: {},
  address: {
    street_address: '1',
    locality: 'X',
    region: 'CO',
    postal_code: '1',
    country_code: 'US',
  },
  timezone: 'UTC',
  services: [{ id: 'gutters', name: 'Gutters' }],
  technicians: [{ id: 'ana', name: 'Ána Ruiz' }],
  service_areas: [],
};

function makeReview(id: string, text: string, title: string | null = null): Review {
  return {
    id,
    url: `https://r.test/reviews/${id}/`,
    rating: 4,
    date: '2024-01-01',
    title,
    text,
    language: 'en',
    author: { name: 'Zoë', location: null },
    verified: true,
    verification: { method: 'manual_check', verified_on: null },
    source: { platform: 'direct', url: null },
    technicians: ['Ána Ruiz'],
    service_ids: ['gutters'],
    service_area_id: null,
    owner_reply: null,
    updated: '2024-01-01',
  };
}

const reviews = [
  makeReview('b', 'Émoji 🏠 and "quotes" </script>', 'Tïtle'),
  makeReview('a', 'plain\ntwo lines'),
];

test('the reviews dataset is byte-identical to JSON.stringify of the dataset object', () => {
  const { reviewsJson } = buildSearchData(business, reviews);
  expect(serializeReviewsDataset(business, reviews).json).toBe(reviewsJson);
  expect(reviewsJson).toBe(
    JSON.stringify({
      schema_version: '1.0.0',
      business,
      aggregate_rating: computeAggregateRating(reviews),
      reviews,
    }),
  );
  expect(buildSearchData(business, []).reviewsJson).toBe(
    JSON.stringify({
      schema_version: '1.0.0',
      business,
      aggregate_rating: computeAggregateRating([]),
      reviews: [],
    }),
  );
});

test('record offsets are the UTF-8 byte ranges of each record', () => {
  const { reviewsJson, columns } = buildSearchData(business, reviews);
  const bytes = Buffer.from(reviewsJson);
  reviews.forEach((review, index) => {
    const slice = bytes.subarray(
      columns.record_offsets[2 * index],
      columns.record_offsets[2 * index + 1],
    );
    expect(JSON.parse(slice.toString('utf8'))).toEqual(review);
  });
});

test("folded offsets delimit each review's folded title and text, each ended by the separator", () => {
  const { folded, columns } = buildSearchData(business, reviews);
  const bytes = Buffer.from(folded);
  reviews.forEach((review, index) => {
    const slice = bytes.subarray(columns.folded_offsets[index], columns.folded_offsets[index + 1]);
    const parts = searchableParts(review).map((part) =>
      Buffer.concat([Buffer.from(part), Buffer.from([0xff])]),
    );
    expect(slice.equals(Buffer.concat(parts))).toBe(true);
  });
  expect(searchableParts(reviews[0]!)).toEqual(['title', 'emoji 🏠 and "quotes" </script>']);
});

test('columns carry ids, dates, ratings and entity indexes', () => {
  const { columns } = buildSearchData(business, reviews);
  expect(columns).toMatchObject({
    ids: ['b', 'a'],
    dates: ['2024-01-01', '2024-01-01'],
    ratings: [4, 4],
    technicians: [[0], [0]],
    services: [[0], [0]],
  });
});
