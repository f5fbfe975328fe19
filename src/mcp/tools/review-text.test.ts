import { expect, test } from 'vitest';
import { makeBusiness, makeReview } from '../../../test/support/builders.ts';
import { createReviewIndex } from '../../core/review-index.ts';
import { parseSearchParams } from '../../core/search.ts';
import { toolHandler } from '../../../test/support/tool-handler.ts';
import { TEXT_MIRROR_MAX_BYTES, shapeResult } from '../server.ts';
import { registerGetReviewsSince } from './get-reviews-since.ts';
import { EXCERPT_MAX_CHARS, excerpt, reviewLines } from './review-text.ts';
import { registerSearchReviews } from './search-reviews.ts';

const story = Array.from({ length: 40 }, (_, i) => `Day ${i + 1} the crew came back.`).join(' ');
const reviews = Array.from({ length: 30 }, (_, i) =>
  makeReview({
    id: `r-${String(i).padStart(2, '0')}`,
    date: `2025-01-${String(i + 1).padStart(2, '0')}`,
    title: i % 2 === 0 ? `Visit ${i}` : null,
    text: `Review ${i}. ${story}`,
  }),
);
const deps = { index: createReviewIndex(reviews, makeBusiness()) };

test('an excerpt is the start of the text, cut at a word, with an ellipsis when cut', () => {
  expect(excerpt('Great  job.\n\nThanks!')).toBe('Great job. Thanks!');
  const cut = excerpt(story);
  expect(cut.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS + 1);
  expect(cut.endsWith('…')).toBe(true);
  expect(story.startsWith(cut.slice(0, -1))).toBe(true);
  expect(story.charAt(cut.length - 1)).toMatch(/[ .]/);
  // One long word of emoji is cut between two of them, never inside one.
  const emoji = excerpt('🏠'.repeat(EXCERPT_MAX_CHARS));
  expect(emoji).toBe(`${'🏠'.repeat(EXCERPT_MAX_CHARS / 2)}…`);
  expect(excerpt(`x${'🏠'.repeat(EXCERPT_MAX_CHARS)}`)).toBe(
    `x${'🏠'.repeat(EXCERPT_MAX_CHARS / 2 - 1)}…`,
  );
});

test('an excerpt never cuts inside an emoji of several code points', () => {
  const segments = (text: string) =>
    [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map(
      ({ segment }) => segment,
    );
  // A flag, a skin tone, a family joined by zero-width joiners, a keycap.
  for (const emoji of ['🇺🇸', '👍🏽', '👨‍👩‍👧', '1️⃣']) {
    const text = `x${emoji.repeat(EXCERPT_MAX_CHARS)}`;
    const cut = excerpt(text);
    expect(cut.endsWith(`${emoji}…`)).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS + 1);
    const shown = segments(cut.slice(0, -1));
    expect(shown).toEqual(segments(text).slice(0, shown.length));
  }
});

test('runs of white space in a long text take no room in its excerpt', () => {
  const text = `Great job on the roof.${'\n'.repeat(2000)}Thanks to the whole crew.`;
  expect(excerpt(text)).toBe('Great job on the roof. Thanks to the whole crew.');
  expect(excerpt(`${' '.repeat(5000)}Dry at last.`)).toBe('Dry at last.');
});

test.each([
  ['search_reviews', registerSearchReviews, { ...parseSearchParams({}), limit: 20 }, 'matching'],
  ['get_reviews_since', registerGetReviewsSince, { date: '2025-01-01', limit: 20 }, 'dated'],
] as const)(
  'a %s page too large to repeat as JSON lists its reviews in its text, one line each',
  async (_name, register, args, words) => {
    const answer = await toolHandler(register, deps)(args);
    expect(Buffer.byteLength(JSON.stringify(answer.structuredContent))).toBeGreaterThan(
      TEXT_MIRROR_MAX_BYTES,
    );
    const text = (shapeResult(answer, false).content[0] as { text: string }).text;
    expect(text).toMatch(new RegExp(`^20 of 30 (reviews )?${words} .*next page: cursor `));
    const page = reviews.toSorted((a, b) => b.date.localeCompare(a.date)).slice(0, 20);
    expect(text).toContain(reviewLines(page));
    expect(text).toContain('- Review r-29: 5 of 5 stars on 2025-01-30 by A. B. Review 29. Day 1');
    expect(text).toContain('Visit 28: Review 28.');
    expect(text).not.toContain('r-09');
  },
);
