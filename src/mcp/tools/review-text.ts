// Reviews as the text block of a tool answer reads them, for clients that show only text.
import type { Review } from '../../core/review.ts';

/** How much of a review's text a line of a page shows. */
export const EXCERPT_MAX_CHARS = 280;

/** "Review roof-1: 4 of 5 stars on 2025-06-03 by Margaret H., Lakewood, CO." */
export function reviewHeading(review: Review): string {
  const by = review.author.location
    ? `${review.author.name}, ${review.author.location}`
    : review.author.name;
  const heading = `Review ${review.id}: ${review.rating} of 5 stars on ${review.date} by ${by}`;
  // "by A. B." ends its sentence with the initial's own period.
  return heading.endsWith('.') ? heading : `${heading}.`;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The start of a word longer than EXCERPT_MAX_CHARS, cut between two characters as a reader sees
 * them: never inside an emoji of several code points (a flag, a skin tone, a family).
 */
function clip(word: string): string {
  let end = 0;
  // A character a reader sees is seldom more than a few dozen code units long; one that would
  // reach past the limit is left out whole anyway.
  for (const { index, segment } of graphemes.segment(word.slice(0, EXCERPT_MAX_CHARS + 64))) {
    if (index + segment.length > EXCERPT_MAX_CHARS) break;
    end = index + segment.length;
  }
  return word.slice(0, end);
}

/**
 * The start of a text, its runs of white space read as one space, cut at a word within
 * EXCERPT_MAX_CHARS, with "…" when cut.
 */
export function excerpt(text: string): string {
  // Word by word, so that only the start of a long review is read, however much space it holds.
  const words = /\S+/g;
  let shown = '';
  for (let found = words.exec(text); found; found = words.exec(text)) {
    const longer = shown ? `${shown} ${found[0]}` : found[0];
    if (longer.length > EXCERPT_MAX_CHARS)
      return `${(shown || clip(found[0])).replace(/[,;:.-]+$/, '')}…`;
    shown = longer;
  }
  return shown;
}

/** One line per review of a page: its heading, title and the start of its text. */
export function reviewLines(reviews: readonly Review[]): string {
  return reviews
    .map((review) => {
      const title = review.title === null ? '' : `${review.title}: `;
      return `- ${reviewHeading(review)} ${title}${excerpt(review.text)}`;
    })
    .join('\n');
}

/**
 * The text of a page of reviews: `lead` ("3 of 9 matching reviews"), the next cursor, and a line
 * per review.
 */
export function pageText(lead: string, page: Record<string, unknown>): string {
  const next =
    typeof page.next_cursor === 'string' ? `; next page: cursor ${page.next_cursor}` : '';
  return [
    `${lead}, newest first${next}.`,
    reviewLines(page.reviews as Review[]),
    'Each review whole is in structuredContent (get_review gives one).',
  ].join('\n');
}
