// The domain's zod schemas: the business, review front matter as committed, the published review
// record and the aggregate rating (docs/decisions.md#content and #published-records). Types are inferred from them.
import { z } from 'zod';
import { IsoDateSchema } from './dates.ts';
import { foldText } from './text.ts';

export const SlugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: 'expected a kebab-case id (a-z, 0-9, -)' });

/**
 * Whether a text holds a character a reader can see: invisible ones alone (control, format and
 * zero-width ones, which the published text drops or a reader cannot see) are as empty as nothing.
 */
export function hasVisibleCharacter(value: string): boolean {
  return /[^\p{Cc}\p{Cf}\p{Z}]/u.test(value);
}

const NonEmptyStringSchema = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  // A refinement, not a pattern: published schemas stay free of \p{…} classes, which some
  // clients' regular expressions cannot read.
  .refine(hasVisibleCharacter, { message: 'must hold a visible character' });
const HttpUrlSchema = z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' });
const ClockTimeSchema = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { message: 'expected a time written HH:MM (24h)' });

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    // Intl throws RangeError for an unknown zone: that is exactly the "invalid" answer.
    return false;
  }
}

export const ServiceSchema = z
  .object({ id: SlugSchema, name: NonEmptyStringSchema, description: z.string().optional() })
  .strict();

export const TechnicianSchema = z
  .object({
    id: SlugSchema,
    name: NonEmptyStringSchema,
    role: z.string().optional(),
    aliases: z.array(NonEmptyStringSchema).optional(),
  })
  .strict();

export const ServiceAreaSchema = z
  .object({
    id: SlugSchema,
    name: NonEmptyStringSchema,
    postal_codes: z.array(NonEmptyStringSchema).optional(),
  })
  .strict();

/** Each item's id once in its list (services, technicians, service areas). */
function uniqueIds(items: readonly { id: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach(({ id }, index) => {
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate id "${id}"` });
    seen.add(id);
  });
}

/**
 * Reviews publish technicians by name and search finds them by id, name or alias (any case, any
 * accent): each of those must point to one technician.
 */
function oneTechnicianEach(
  technicians: readonly z.infer<typeof TechnicianSchema>[],
  ctx: z.RefinementCtx,
): void {
  const owner = new Map<string, number>();
  technicians.forEach((technician, index) => {
    const names: [string, (string | number)[]][] = [
      [technician.id, ['id']],
      [technician.name, ['name']],
      ...(technician.aliases ?? []).map((alias, k): [string, (string | number)[]] => [
        alias,
        ['aliases', k],
      ]),
    ];
    for (const [name, at] of names) {
      const key = foldText(name.trim());
      const other = owner.get(key);
      if (other === undefined) owner.set(key, index);
      // A repeated id is reported as a duplicate id.
      else if (other !== index && !(at[0] === 'id' && technicians[other]!.id === name))
        ctx.addIssue({
          code: 'custom',
          path: [index, ...at],
          message: `"${name}" also names technician "${technicians[other]!.id}": each id, name and alias must name one technician`,
        });
    }
  });
}

// Each list's own checks (ids once, one technician per name) sit on the list, so that they are
// reported in the same round as a problem elsewhere in the file.
export const BusinessSchema = z
  .object({
    name: NonEmptyStringSchema,
    legal_name: z.string().optional(),
    description: z.string().optional(),
    founded_year: z.number().int().min(1800).max(9999).optional(),
    contact: z
      .object({
        phone: z.string().optional(),
        email: z.email().optional(),
        website: HttpUrlSchema.optional(),
      })
      .strict()
      // Every part is optional, so the whole may be left out.
      .default({}),
    address: z
      .object({
        street_address: NonEmptyStringSchema,
        locality: NonEmptyStringSchema,
        region: NonEmptyStringSchema,
        postal_code: NonEmptyStringSchema,
        country_code: z.string().regex(/^[A-Z]{2}$/, { message: 'expected ISO 3166-1 alpha-2' }),
      })
      .strict(),
    timezone: z.string().refine(isValidTimeZone, { message: 'expected an IANA time zone' }),
    hours: z
      .array(
        z
          .object({
            days: z.array(z.enum(WEEKDAYS)).min(1),
            opens: ClockTimeSchema,
            closes: ClockTimeSchema,
          })
          .strict(),
      )
      .optional(),
    services: z.array(ServiceSchema).min(1).superRefine(uniqueIds),
    technicians: z.array(TechnicianSchema).superRefine(uniqueIds).superRefine(oneTechnicianEach),
    service_areas: z.array(ServiceAreaSchema).superRefine(uniqueIds),
    licenses: z
      .array(
        z
          .object({
            name: NonEmptyStringSchema,
            number: NonEmptyStringSchema,
            issuer: NonEmptyStringSchema,
            region: z.string().optional(),
            valid_until: IsoDateSchema.optional(),
          })
          .strict(),
      )
      .optional(),
    certifications: z
      .array(
        z
          .object({
            name: NonEmptyStringSchema,
            issuer: NonEmptyStringSchema,
            since: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    profiles: z
      .array(z.object({ platform: NonEmptyStringSchema, url: HttpUrlSchema }).strict())
      .optional(),
  })
  .strict();

export type Business = z.infer<typeof BusinessSchema>;

/** Whether a language tag (BCP 47) is English ("en", "en-GB"): the one language insights read. */
export const isEnglish = (language: string) => language.toLowerCase().split('-')[0] === 'en';

export const REVIEW_SOURCES = [
  'direct',
  'google',
  'yelp',
  'facebook',
  'bbb',
  'angi',
  'nextdoor',
  'trustpilot',
  'other',
] as const;
export const VERIFICATION_METHODS = [
  'job_record_match',
  'invitation_link',
  'platform_verified',
  'manual_check',
] as const;

/**
 * Lengths past which a front matter text is a paste gone wrong: a review platform's titles and
 * names are far shorter, and an owner's reply is held to what a review's text may be.
 */
export const MAX_TITLE_LENGTH = 300;
export const MAX_NAME_LENGTH = 200;
export const MAX_REPLY_LENGTH = 20_000;

const atMost = (length: number) => ({
  message: `may be at most ${length.toLocaleString('en-US')} characters`,
});

/** Front matter of `content/reviews/<id>.md` as the business commits it. */
export const ReviewFrontMatterSchema = z
  .object({
    rating: z.number().int({ message: 'expected a whole number of stars' }).min(1).max(5),
    date: IsoDateSchema,
    title: z.string().max(MAX_TITLE_LENGTH, atMost(MAX_TITLE_LENGTH)).optional(),
    author: NonEmptyStringSchema.max(MAX_NAME_LENGTH, atMost(MAX_NAME_LENGTH)),
    location: z.string().max(MAX_NAME_LENGTH, atMost(MAX_NAME_LENGTH)).optional(),
    source: z.enum(REVIEW_SOURCES),
    source_url: HttpUrlSchema.optional(),
    /** The platform's own id of the review (set by import-reviews); never published. */
    source_id: z.string().min(1).max(500).optional(),
    verification: z.enum(VERIFICATION_METHODS).optional(),
    verified_on: IsoDateSchema.optional(),
    technicians: z.array(SlugSchema).default([]),
    services: z.array(SlugSchema).default([]),
    service_area: SlugSchema.optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, {
        message: 'expected a BCP 47 language tag such as "en"',
      })
      .default('en'),
    reply: z
      .object({
        date: IsoDateSchema,
        text: NonEmptyStringSchema.max(MAX_REPLY_LENGTH, atMost(MAX_REPLY_LENGTH)),
      })
      .strict()
      .optional(),
    updated: IsoDateSchema.optional(),
    private: z.unknown().optional(),
  })
  .strict();

export type ReviewFrontMatter = z.infer<typeof ReviewFrontMatterSchema>;

/** The published review record (docs/decisions.md#published-records). */
export const ReviewSchema = z.object({
  id: SlugSchema,
  url: z.url(),
  rating: z.number().int().min(1).max(5),
  date: IsoDateSchema,
  title: z.string().nullable(),
  text: z.string(),
  language: z.string(),
  author: z.object({ name: z.string(), location: z.string().nullable() }),
  verified: z.literal(true),
  verification: z.object({
    method: z.enum(VERIFICATION_METHODS),
    verified_on: IsoDateSchema.nullable(),
  }),
  source: z.object({ platform: z.enum(REVIEW_SOURCES), url: z.string().nullable() }),
  technicians: z
    .array(z.string())
    .meta({ description: 'canonical names of the technicians the review mentions' }),
  service_ids: z.array(SlugSchema),
  service_area_id: SlugSchema.nullable(),
  owner_reply: z.object({ date: IsoDateSchema, text: z.string() }).nullable(),
  updated: IsoDateSchema,
});

export type Review = z.infer<typeof ReviewSchema>;

export const RatingDistributionSchema = z.object({
  '1': z.number().int().nonnegative(),
  '2': z.number().int().nonnegative(),
  '3': z.number().int().nonnegative(),
  '4': z.number().int().nonnegative(),
  '5': z.number().int().nonnegative(),
});

export const AggregateRatingSchema = z.object({
  rating_value: z
    .number()
    .nullable()
    .meta({ description: 'mean rating, 2 decimals; null with no reviews' }),
  review_count: z.number().int().nonnegative(),
  best_rating: z.literal(5),
  worst_rating: z.literal(1),
  distribution: RatingDistributionSchema,
});

export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

/** Mean to 2 decimals, or null when there is nothing to average. */
export function roundedMean(sum: number, count: number): number | null {
  return count === 0 ? null : Math.round((sum / count) * 100) / 100;
}

export function computeAggregateRating(
  reviews: readonly Pick<Review, 'rating'>[],
): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const review of reviews) {
    distribution[String(review.rating) as keyof typeof distribution] += 1;
    sum += review.rating;
  }
  return {
    rating_value: roundedMean(sum, reviews.length),
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}

/** Newest first: `date` descending, then `id` ascending. */
export function compareNewestFirst(
  a: Pick<Review, 'date' | 'id'>,
  b: Pick<Review, 'date' | 'id'>,
): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const ReviewsDatasetSchema = z.object({
  schema_version: z.literal('1.0.0'),
  business: BusinessSchema,
  aggregate_rating: AggregateRatingSchema,
  reviews: z.array(ReviewSchema),
});

export type ReviewsDataset = z.infer<typeof ReviewsDatasetSchema>;
