import { expect, test } from 'vitest';
import { CHECKS, todayAt } from './new-review.ts';

test("today's date is the business's: 8 pm in Denver is still the 27th when UTC says the 28th", () => {
  const evening = new Date('2026-11-28T03:00:00Z');
  expect(todayAt('America/Denver', evening)).toBe('2026-11-27');
  expect(todayAt('UTC', evening)).toBe('2026-11-28');
  expect(todayAt('Pacific/Auckland', new Date('2026-11-27T12:30:00Z'))).toBe('2026-11-28');
});

test('the text check holds a review to what the build publishes', () => {
  expect(CHECKS.text('Good roof.')).toBe(true);
  expect(CHECKS.text('  \u200b ')).toBe('the review text');
  expect(CHECKS.text('a'.repeat(20_001))).toBe(
    'the review text, at most 20,000 characters (is 20,001 characters)',
  );
  expect(CHECKS.text('😀'.repeat(20_000))).toBe(true);
});
