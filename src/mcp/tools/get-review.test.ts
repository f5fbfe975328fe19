import { expect, test } from 'vitest';
import { makeReview } from '../../../test/support/builders.ts';
import { toolHandler } from '../../../test/support/tool-handler.ts';
import { TEXT_MIRROR_MAX_BYTES, shapeResult } from '../server.ts';
import { registerGetReview, summarizeReview } from './get-review.ts';

// A long review: its JSON is over the size the text block repeats.
const long = makeReview({
  id: 'long-story',
  rating: 4,
  date: '2025-06-03',
  title: 'The whole hail claim, day by day',
  text: Array.from({ length: 400 }, (_, i) => `Day ${i + 1}: the crew came back.`).join(' '),
  author: { name: 'Margaret H.', location: 'Lakewood, CO' },
  owner_reply: { date: '2025-06-05', text: 'Thank you, Margaret.' },
});

test("a long review's text block is the review as a person reads it, its text whole", () => {
  const text = summarizeReview(long);
  expect(text).toContain(
    'Review long-story: 4 of 5 stars on 2025-06-03 by Margaret H., Lakewood, CO.',
  );
  expect(text).toContain(long.title);
  expect(text).toContain(long.text);
  expect(text).toContain('The owner replied on 2025-06-05: Thank you, Margaret.');
  expect(text).toContain(long.url);
  expect(summarizeReview(makeReview({ id: 'short' }))).not.toContain('owner replied');
});

test('get_review of a review too long to repeat as JSON answers that text', async () => {
  const index = { getReview: (id: string) => (id === long.id ? long : undefined) };
  const handler = toolHandler(registerGetReview, { index } as never);
  const answer = await handler({ id: long.id });
  expect(Buffer.byteLength(JSON.stringify(answer.structuredContent))).toBeGreaterThan(
    TEXT_MIRROR_MAX_BYTES,
  );
  const shaped = shapeResult(answer, false);
  expect(shaped.content).toEqual([{ type: 'text', text: summarizeReview(long) }]);
});
