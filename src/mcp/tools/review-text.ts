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

/** The start of a text, cut at a word within EXCERPT_MAX_CHARS, with "…" when cut. */
export function excerpt(text: string): string {
  // Only the start is read: a long review is not flattened whole for a line of it.
  const head = text.slice(0, EXCERPT_MAX_CHARS * 4);
  const flat = head.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_MAX_CHARS && head.length === text.length) return flat;
  const cut = flat.slice(0, EXCERPT_MAX_CHARS);
  const space = cut.lastIndexOf(' ');
  // Without a space to cut at, the cut may fall inside an emoji: its first half goes too.
  const start = space > 0 ? cut.slice(0, space) : cut.replace(/[\uD800-\uDBFF]$/, '');
  return `${start.replace(/[\s,;:.-]+$/, '')}…`;
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
