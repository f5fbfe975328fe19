// The aspect section of the insights dataset: per aspect, how many reviews and sentences speak of
// it, their polarity split, a score, the trend of the last 12 months and a few quotes.
import { z } from 'zod';
import { compareNewestFirst } from '../review.ts';
import { sourceOf } from '../text.ts';
import { POLARITIES, type Polarity } from './lexicon.ts';
import type { ReviewAnalysis } from './analysis.ts';
import { ASPECT_IDS, ASPECT_LABELS, type AspectId } from './lexicon.ts';

/** The recent side of the trend: this many months up to the newest review (not the clock). */
export const TREND_MONTHS = 12;
/** Fewer reviews than this on either side of the trend and there is no direction. */
export const TREND_MIN_REVIEWS = 3;
/** A change of the score smaller than this is "steady". */
export const TREND_STEADY_BAND = 0.1;
export const QUOTES_PER_ASPECT = 3;
// Quotes read best as whole thoughts that are not essays.
const QUOTE_WORDS_MIN = 6;
const QUOTE_WORDS_MAX = 40;

const SCORE_DESCRIPTION =
  '(positive − negative) / review_count over the reviews that mention the aspect, from −1 (all negative) to 1 (all positive), 2 decimals; null when none does';

export const AspectTallySchema = z.object({
  review_count: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'reviews that speak of the aspect' }),
  positive: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'of those, reviews positive on it' }),
  negative: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'of those, reviews negative on it' }),
  neutral: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'of those, reviews neutral or mixed on it' }),
  score: z.number().nullable().meta({ description: SCORE_DESCRIPTION }),
});

export type AspectTally = z.infer<typeof AspectTallySchema>;

const TrendSideSchema = z.object({
  review_count: z.number().int().nonnegative(),
  score: z.number().nullable(),
});

export const AspectTrendSchema = z.object({
  since: z
    .string()
    .nullable()
    .meta({
      description: `start (exclusive) of the recent window: ${TREND_MONTHS} months before the newest review's date`,
    }),
  until: z.string().nullable().meta({ description: 'date of the newest review (inclusive)' }),
  recent: TrendSideSchema,
  earlier: TrendSideSchema,
  change: z
    .number()
    .nullable()
    .meta({ description: 'recent.score − earlier.score, 2 decimals; null when a side is empty' }),
  direction: z
    .enum(['improving', 'worsening', 'steady'])
    .nullable()
    .meta({
      description: `steady when |change| < ${TREND_STEADY_BAND}; null with fewer than ${TREND_MIN_REVIEWS} reviews on a side`,
    }),
});

export const QuoteSchema = z.object({
  review_id: z.string(),
  text: z.string().meta({
    description:
      'the sentence, character for character as the review has it (line breaks too), less a markdown marker ("> ", "- ") before its first word',
  }),
  polarity: z.enum(POLARITIES),
});

export const AspectStatsSchema = AspectTallySchema.extend({
  label: z.string(),
  sentence_count: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'sentences that speak of the aspect' }),
  sentences: z
    .object({
      positive: z.number().int().nonnegative(),
      negative: z.number().int().nonnegative(),
      neutral: z.number().int().nonnegative(),
    })
    .meta({ description: 'those sentences by polarity' }),
  trend: AspectTrendSchema,
  quotes: z.array(QuoteSchema).meta({
    description: `up to ${QUOTES_PER_ASPECT} different sentences, the more common polarity first, from different reviews; sentences about this aspect alone and newer reviews are preferred`,
  }),
});

export type AspectStats = z.infer<typeof AspectStatsSchema>;

export const AspectsSchema = z
  .object(
    Object.fromEntries(ASPECT_IDS.map((id) => [id, AspectStatsSchema])) as Record<
      AspectId,
      typeof AspectStatsSchema
    >,
  )
  .meta({
    description:
      'Aspect-based sentiment of the review texts (docs/aspects.md). A review counts once per aspect, with the polarity of most of its sentences on it, the star rating breaking ties.',
  });

export type Aspects = z.infer<typeof AspectsSchema>;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** (positive − negative) / total, 2 decimals, or null with no reviews. */
export function aspectScore(positive: number, negative: number, total: number): number | null {
  return total === 0 ? null : round2((positive - negative) / total);
}

/** Tallies review-level opinions on each aspect. */
export function tallyAspects(
  analyses: readonly Pick<ReviewAnalysis, 'aspects'>[],
): Record<AspectId, AspectTally> {
  const counts = Object.fromEntries(
    ASPECT_IDS.map((id) => [id, { positive: 0, negative: 0, neutral: 0 }]),
  ) as Record<AspectId, Record<Polarity, number>>;
  for (const analysis of analyses)
    for (const opinion of analysis.aspects) counts[opinion.aspect][opinion.polarity] += 1;
  return Object.fromEntries(
    ASPECT_IDS.map((id) => {
      const { positive, negative, neutral } = counts[id];
      const total = positive + negative + neutral;
      return [
        id,
        {
          review_count: total,
          positive,
          negative,
          neutral,
          score: aspectScore(positive, negative, total),
        },
      ];
    }),
  ) as Record<AspectId, AspectTally>;
}

/** The ISO date `months` months before `date`, the day clamped to the month's last. */
export function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(Math.min(day, lastDay), 2)}`;
}

interface Candidate {
  analysis: ReviewAnalysis;
  sentence: number;
  text: string;
  polarity: Polarity;
  alone: boolean;
  fits: boolean;
}

/**
 * Markdown's line markers before a quote's first word (a blockquote's ">", a list's "-"), which
 * are not what the reviewer said; "**Great**" keeps its asterisks, being part of the words.
 */
const LEADING_MARKERS = /^(?:[>#*+\-•]+\s+)+/u;

function pickQuotes(candidates: Candidate[]): AspectStats['quotes'] {
  const rank = (a: Candidate, b: Candidate) =>
    Number(b.alone) - Number(a.alone) ||
    Number(b.fits) - Number(a.fits) ||
    compareNewestFirst(a.analysis.review, b.analysis.review) ||
    a.sentence - b.sentence;
  const positive = candidates.filter((c) => c.polarity === 'positive').sort(rank);
  const negative = candidates.filter((c) => c.polarity === 'negative').sort(rank);
  const [major, minor] =
    negative.length > positive.length ? [negative, positive] : [positive, negative];
  const chosen: Candidate[] = [];
  const used = new Set<string>();
  // A sentence that several reviews share word for word ("Great job.") is quoted once.
  const said = new Set<string>();
  const take = (list: Candidate[], count: number) => {
    for (const candidate of list) {
      if (count === 0) break;
      const words = candidate.text.toLowerCase().replace(/\s+/g, ' ').trim();
      if (used.has(candidate.analysis.review.id) || said.has(words)) continue;
      used.add(candidate.analysis.review.id);
      said.add(words);
      chosen.push(candidate);
      count -= 1;
    }
  };
  take(major, minor.length > 0 ? QUOTES_PER_ASPECT - 1 : QUOTES_PER_ASPECT);
  take(minor, QUOTES_PER_ASPECT - chosen.length);
  // The other side had nothing new to say: the larger one fills the rest.
  take(major, QUOTES_PER_ASPECT - chosen.length);
  return chosen.map((c) => ({
    review_id: c.analysis.review.id,
    text: (sourceOf(c.analysis.review.text, c.text) ?? c.text).replace(LEADING_MARKERS, ''),
    polarity: c.polarity,
  }));
}

export function computeAspects(analyses: readonly ReviewAnalysis[]): Aspects {
  const until = analyses.reduce<string | null>(
    (newest, a) => (newest === null || a.review.date > newest ? a.review.date : newest),
    null,
  );
  const since = until === null ? null : monthsBefore(until, TREND_MONTHS);
  const isRecent = (a: ReviewAnalysis) => since !== null && a.review.date > since;
  const all = tallyAspects(analyses);
  const recent = tallyAspects(analyses.filter(isRecent));
  const earlier = tallyAspects(analyses.filter((a) => !isRecent(a)));

  const result = {} as Aspects;
  for (const aspect of ASPECT_IDS) {
    const sentences = { positive: 0, negative: 0, neutral: 0 };
    const candidates: Candidate[] = [];
    for (const analysis of analyses) {
      for (const sentence of analysis.sentences) {
        const opinion = sentence.aspects.find((o) => o.aspect === aspect);
        if (!opinion) continue;
        sentences[opinion.polarity] += 1;
        if (opinion.polarity === 'neutral') continue;
        const words = sentence.tokens.text.split(' ').length;
        candidates.push({
          analysis,
          sentence: sentence.index,
          text: sentence.tokens.text,
          polarity: opinion.polarity,
          alone: sentence.aspects.length === 1,
          fits: words >= QUOTE_WORDS_MIN && words <= QUOTE_WORDS_MAX,
        });
      }
    }
    const r = recent[aspect];
    const e = earlier[aspect];
    const change = r.score === null || e.score === null ? null : round2(r.score - e.score);
    const direction =
      change === null || r.review_count < TREND_MIN_REVIEWS || e.review_count < TREND_MIN_REVIEWS
        ? null
        : Math.abs(change) < TREND_STEADY_BAND
          ? 'steady'
          : change > 0
            ? 'improving'
            : 'worsening';
    result[aspect] = {
      label: ASPECT_LABELS[aspect],
      ...all[aspect],
      sentence_count: sentences.positive + sentences.negative + sentences.neutral,
      sentences,
      trend: {
        since,
        until,
        recent: { review_count: r.review_count, score: r.score },
        earlier: { review_count: e.review_count, score: e.score },
        change,
        direction,
      },
      quotes: pickQuotes(candidates),
    };
  }
  return result;
}
