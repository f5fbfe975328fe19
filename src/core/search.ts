// The one search schema (HTTP `GET /api/reviews/search` and MCP `search_reviews` share it), its
// query-string parsing and the answer shapes. review-index.ts answers it.
import { z } from 'zod';
import { IsoDateSchema } from './dates.ts';
import { ValidationError, toIssues, type Issue } from './errors.ts';
import { ReviewSchema } from './review.ts';
import { foldText } from './text.ts';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_NAME_MAX_LENGTH = 100;
/** More query parameters than this is not a search anyone means; refused before any parsing. */
export const SEARCH_PARAMS_MAX = 32;

/** A number field whose every failure says what is allowed: MCP and HTTP show it as is. */
function boundedNumber(min: number, max: number, integer: boolean) {
  const message = `expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
  const base = z
    .number({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
  return integer ? base.int({ error: message }) : base;
}

export const SearchParamsSchema = z
  .object({
    rating: boundedNumber(1, 5, true).optional().describe('Exact star rating to match (1 to 5).'),
    min_rating: boundedNumber(1, 5, false)
      .optional()
      .describe('Minimum star rating, inclusive (1 to 5).'),
    since: IsoDateSchema.optional().describe(
      'Only reviews dated on or after this date (YYYY-MM-DD).',
    ),
    until: IsoDateSchema.optional().describe(
      'Only reviews dated on or before this date (YYYY-MM-DD).',
    ),
    query: z
      .string({ error: 'expected a string' })
      .min(1, { error: 'must not be empty' })
      .regex(/\S/, { error: 'must not be blank' })
      .max(SEARCH_QUERY_MAX_LENGTH, {
        error: `must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
      })
      // Accents alone (a combining mark, a variation selector) fold to nothing, which every
      // review contains.
      .refine((value) => !/\S/.test(value) || /\S/.test(foldText(value)), {
        error: 'must hold more than accents or other marks',
      })
      .optional()
      .describe('Case- and accent-insensitive substring of the review text or title.'),
    mentions_technician: z
      .string({ error: 'expected a string' })
      .min(1, { error: 'must not be empty' })
      .regex(/\S/, { error: 'must not be blank' })
      .max(SEARCH_NAME_MAX_LENGTH, {
        error: `must be at most ${SEARCH_NAME_MAX_LENGTH} characters`,
      })
      .optional()
      .describe(
        "Only reviews mentioning this technician: the technician's name, id or an alias, any case.",
      ),
    mentions_service: z
      .string({ error: 'expected a service id' })
      .min(1, { error: 'must not be empty' })
      .regex(/\S/, { error: 'must not be blank' })
      .max(SEARCH_NAME_MAX_LENGTH, {
        error: `must be at most ${SEARCH_NAME_MAX_LENGTH} characters`,
      })
      .optional()
      .describe('Only reviews mentioning this service id (see business.services).'),
    limit: boundedNumber(1, SEARCH_LIMIT_MAX, true)
      .default(SEARCH_LIMIT_DEFAULT)
      .describe(
        `Maximum number of reviews returned (1 to ${SEARCH_LIMIT_MAX}, default ${SEARCH_LIMIT_DEFAULT}).`,
      ),
  })
  .strict()
  .refine((p) => p.since === undefined || p.until === undefined || p.since <= p.until, {
    path: ['since'],
    message: 'since must be on or before until',
  });

export type SearchParams = z.output<typeof SearchParamsSchema>;
export type SearchInput = z.input<typeof SearchParamsSchema>;

const NUMERIC_PARAMS: ReadonlySet<string> = new Set(
  Object.entries(SearchParamsSchema.shape)
    .filter(([, schema]) => schema.def.innerType.def.type === 'number')
    .map(([name]) => name),
);
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const KNOWN_PARAMS = Object.keys(SearchParamsSchema.shape);

/** zod issues for the wire, with one issue per unknown parameter, at that parameter's path. */
function searchIssues(error: z.ZodError): Issue[] {
  const seen = new Set<string>();
  return toIssues(error).flatMap((issue, index) => {
    // A value can fail two checks with the same words (a number too big to be an integer and
    // over the maximum); each is listed once.
    const key = JSON.stringify([issue.path, issue.code, issue.message]);
    if (seen.has(key)) return [];
    seen.add(key);
    const raw = error.issues[index];
    if (raw?.code !== 'unrecognized_keys') return [issue];
    return raw.keys.map((key) => ({
      path: [key],
      code: 'unrecognized_keys',
      message: `unknown parameter "${key}"; known: ${KNOWN_PARAMS.join(', ')}`,
    }));
  });
}

/**
 * Turns query-string pairs into search params: numbers are converted only when written as plain
 * decimals (so "5abc" or "" stay strings and fail as the wrong type); a repeated parameter is an
 * issue of its own; unknown parameters fail through the strict schema.
 */
export function parseSearchQuery(pairs: Iterable<[string, string]>): SearchParams {
  // No prototype: `__proto__`, `constructor` and the like are plain (unknown) names here.
  const record: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const repeated = new Set<string>();
  let given = 0;
  for (const [name, value] of pairs) {
    given += 1;
    if (given > SEARCH_PARAMS_MAX)
      throw new ValidationError('invalid search parameters', [
        {
          path: [],
          code: 'too_many_parameters',
          message: `at most ${SEARCH_PARAMS_MAX} parameters; known: ${KNOWN_PARAMS.join(', ')}`,
        },
      ]);
    if (Object.hasOwn(record, name)) repeated.add(name);
    record[name] = NUMERIC_PARAMS.has(name) && DECIMAL.test(value) ? Number(value) : value;
  }
  const result = SearchParamsSchema.safeParse(record);
  const issues = result.success ? [] : searchIssues(result.error);
  for (const name of repeated) {
    issues.unshift({
      path: [name],
      code: 'repeated_parameter',
      message: `parameter "${name}" is given more than once`,
    });
  }
  if (issues.length > 0 || !result.success)
    throw new ValidationError('invalid search parameters', issues);
  return result.data;
}

/** Validates params that arrive already typed (MCP arguments, internal calls). */
export function parseSearchParams(input: unknown): SearchParams {
  const result = SearchParamsSchema.safeParse(input);
  if (!result.success)
    throw new ValidationError('invalid search parameters', searchIssues(result.error));
  return result.data;
}

export const SearchResultSchema = z.object({
  total: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'number of reviews matching every filter' }),
  count: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'number of reviews returned (at most limit)' }),
  limit: z.number().int().nonnegative(),
  reviews: z.array(ReviewSchema).meta({ description: 'matching reviews, newest first' }),
});

export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SinceResultSchema = z.object({
  since: IsoDateSchema,
  count: z.number().int().nonnegative(),
  reviews: z
    .array(ReviewSchema)
    .meta({ description: 'reviews dated on or after since, newest first' }),
});

export type SinceResult = z.infer<typeof SinceResultSchema>;
