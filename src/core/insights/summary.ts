// The summary section: the owner's editorial title and text (summary.md) beside highlights and
// concerns computed from the aspect figures, so what it claims can be checked against them.
import { z } from 'zod';
import type { InsightsEditorial } from './editorial.ts';
import type { Aspects } from './aspect-stats.ts';
import { ASPECT_IDS, type AspectId } from './lexicon.ts';

export const SUMMARY_ITEMS_MAX = 3;
/** An aspect is summarised once this many reviews speak of it (or 5% of them, if more). */
export const SUMMARY_MIN_REVIEWS = 3;
/** A highlight has at least this score. */
export const HIGHLIGHT_MIN_SCORE = 0.5;
/** A concern has at least this share of negative reviews, or a worsening trend. */
export const CONCERN_MIN_NEGATIVE_SHARE = 0.2;

const SummaryItemSchema = z.object({
  aspect: z.string(),
  text: z.string().meta({ description: 'one sentence generated from the figures' }),
  review_count: z.number().int().nonnegative(),
  positive: z.number().int().nonnegative(),
  negative: z.number().int().nonnegative(),
  score: z.number().nullable(),
});

export const ComputedSummarySchema = z.object({
  title: z.string().nullable().meta({ description: "the owner's title (summary.md), or null" }),
  text: z.string().nullable().meta({ description: "the owner's text (summary.md), or null" }),
  highlights: z.array(SummaryItemSchema).meta({
    description: `up to ${SUMMARY_ITEMS_MAX} aspects with a score of at least ${HIGHLIGHT_MIN_SCORE}, best first`,
  }),
  concerns: z.array(SummaryItemSchema).meta({
    description: `up to ${SUMMARY_ITEMS_MAX} aspects with at least ${CONCERN_MIN_NEGATIVE_SHARE * 100}% negative reviews or a worsening trend, most negative reviews first`,
  }),
});

export type ComputedSummary = z.infer<typeof ComputedSummarySchema>;

const percent = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`;

/** "1 of the 7 reviews … is", "2 of the 7 reviews … are". */
const are = (count: number) => (count === 1 ? 'is' : 'are');

export function computeSummary(
  aspects: Aspects,
  reviewCount: number,
  editorial: InsightsEditorial['summary'],
): ComputedSummary {
  const minReviews = Math.max(SUMMARY_MIN_REVIEWS, Math.ceil(reviewCount * 0.05));
  const order = (id: AspectId) => ASPECT_IDS.indexOf(id);
  const eligible = ASPECT_IDS.filter((id) => aspects[id].review_count >= minReviews);
  const item = (id: AspectId, text: string) => {
    const { review_count, positive, negative, score } = aspects[id];
    return { aspect: id, text, review_count, positive, negative, score };
  };

  const highlights = eligible
    .filter((id) => (aspects[id].score ?? -1) >= HIGHLIGHT_MIN_SCORE)
    .sort(
      (a, b) =>
        aspects[b].score! - aspects[a].score! ||
        aspects[b].review_count - aspects[a].review_count ||
        order(a) - order(b),
    )
    .slice(0, SUMMARY_ITEMS_MAX)
    .map((id) => {
      const a = aspects[id];
      return item(
        id,
        `${a.label}: ${a.positive} of the ${a.review_count} reviews that speak of it ${are(a.positive)} positive (${percent(a.positive, a.review_count)}).`,
      );
    });

  const concerns = eligible
    .filter(
      (id) =>
        aspects[id].negative / aspects[id].review_count >= CONCERN_MIN_NEGATIVE_SHARE ||
        aspects[id].trend.direction === 'worsening',
    )
    .sort(
      (a, b) =>
        aspects[b].negative - aspects[a].negative ||
        aspects[b].negative / aspects[b].review_count -
          aspects[a].negative / aspects[a].review_count ||
        order(a) - order(b),
    )
    .slice(0, SUMMARY_ITEMS_MAX)
    .map((id) => {
      const a = aspects[id];
      const { trend } = a;
      const worsening =
        trend.direction === 'worsening'
          ? `, and its score fell from ${trend.earlier.score} to ${trend.recent.score} in the ${trend.recent.review_count} reviews of the last 12 months`
          : '';
      return item(
        id,
        `${a.label}: ${a.negative} of the ${a.review_count} reviews that speak of it ${are(a.negative)} negative (${percent(a.negative, a.review_count)})${worsening}.`,
      );
    });

  return {
    title: editorial?.title ?? null,
    text: editorial?.text ?? null,
    highlights,
    concerns,
  };
}
