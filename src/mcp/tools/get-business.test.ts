import { expect, test } from 'vitest';
import { loadContent } from '../../content/load-content.ts';
import { computeAggregateRating } from '../../core/review.ts';
import { toolHandler } from '../../../test/support/tool-handler.ts';
import { registerGetBusiness, summarizeBusiness } from './get-business.ts';

const { business, reviews } = await loadContent({
  contentDir: new URL('../../../test/fixtures/content', import.meta.url).pathname,
  siteUrl: 'https://reviews.test',
});
const rating = computeAggregateRating(reviews);

test("a get_business answer's text names the business, its rating and the ids to ask with", () => {
  const text = summarizeBusiness(business, rating);
  expect(text.startsWith(`${business.name} (`)).toBe(true);
  expect(text).toContain(`rated ${rating.rating_value} of 5 by ${rating.review_count} verified`);
  expect(text).toContain(`5 stars ${rating.distribution['5']}`);
  for (const service of business.services) expect(text).toContain(`${service.id}: ${service.name}`);
  for (const technician of business.technicians) expect(text).toContain(technician.name);
  for (const area of business.service_areas) expect(text).toContain(area.name);
  expect(summarizeBusiness(business, computeAggregateRating([]))).toContain(
    'no verified reviews yet',
  );
});

test('get_business gives its answer that text (shown when the JSON is too large to repeat)', async () => {
  const handler = toolHandler(registerGetBusiness, {
    summary: { business, aggregate_rating: rating },
  } as never);
  const result = await handler();
  expect(result.content).toEqual([{ type: 'text', text: summarizeBusiness(business, rating) }]);
});
