// The one search schema (HTTP `GET /api/reviews/search` and MCP `search_reviews` share it) and the
// in-memory index that answers it. Built once per process from the published reviews; every
// filter has an index, and records are serialized once so responses are joined from ready strings.
import { z } from 'zod';
import { IsoDateSchema } from './dates.ts';
import { ValidationError, toIssues, type Issue } from './errors.ts';
import { ReviewSchema, compareNewestFirst, type Business, type Review } from './review.ts';
import { foldText } from './text.ts';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_NAME_MAX_LENGTH = 100;

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
      .max(SEARCH_QUERY_MAX_LENGTH, {
        error: `must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
      })
      .optional()
      .describe('Case- and accent-insensitive substring of the review text or title.'),
    mentions_technician: z
      .string({ error: 'expected a string' })
      .min(1, { error: 'must not be empty' })
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
  return toIssues(error).flatMap((issue, index) => {
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
  const record: Record<string, unknown> = {};
  const repeated = new Set<string>();
  for (const [name, value] of pairs) {
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
  total: z.number().int().meta({ description: 'number of reviews matching every filter' }),
  count: z.number().int().meta({ description: 'number of reviews returned (at most limit)' }),
  limit: z.number().int(),
  reviews: z.array(ReviewSchema).meta({ description: 'matching reviews, newest first' }),
});

export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SinceResultSchema = z.object({
  since: IsoDateSchema,
  count: z.number().int(),
  reviews: z
    .array(ReviewSchema)
    .meta({ description: 'reviews dated on or after since, newest first' }),
});

export type SinceResult = z.infer<typeof SinceResultSchema>;

export interface ReviewIndex {
  /** Published reviews, newest first. */
  readonly reviews: readonly Review[];
  search(params: SearchParams): SearchResult;
  /** The search response body, joined from each record's ready JSON. */
  searchJson(params: SearchParams): string;
  since(date: string): SinceResult;
  sinceJson(date: string): string;
  getReview(id: string): Review | undefined;
  /** Technician id for a name, id or alias (folded), or undefined. */
  resolveTechnician(name: string): string | undefined;
}

interface Match {
  total: number;
  indices: number[];
}

const TRIGRAM = 3;

function trigramsOf(folded: string): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= folded.length; i += 1) grams.add(folded.slice(i, i + TRIGRAM));
  return grams;
}

function toPostingLists(lists: Map<string, number[]>): Map<string, Uint32Array> {
  const out = new Map<string, Uint32Array>();
  for (const [key, list] of lists) out.set(key, Uint32Array.from(list));
  return out;
}

function push<K>(map: Map<K, number[]>, key: K, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

/** First position in `list` (ascending) whose value is >= `value`. */
function lowerBound(list: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createReviewIndex(input: readonly Review[], business: Business): ReviewIndex {
  const reviews = [...input].sort(compareNewestFirst);
  const count = reviews.length;
  const json = reviews.map((review) => JSON.stringify(review));
  const folded = reviews.map((review) =>
    foldText(review.title ? `${review.title}\n${review.text}` : review.text),
  );
  const dates = reviews.map((review) => review.date);
  const ratings = Uint8Array.from(reviews, (review) => review.rating);
  const byId = new Map(reviews.map((review, index) => [review.id, index]));

  const technicianByName = new Map<string, string>();
  const technicianIdByCanonical = new Map<string, string>();
  for (const technician of business.technicians) {
    technicianIdByCanonical.set(technician.name, technician.id);
    for (const name of [technician.id, technician.name, ...(technician.aliases ?? [])]) {
      technicianByName.set(foldText(name.trim()), technician.id);
    }
  }
  const knownServiceIds = new Set(business.services.map((service) => service.id));

  const ratingLists = new Map<number, number[]>();
  const technicianLists = new Map<string, number[]>();
  const serviceLists = new Map<string, number[]>();
  const trigramLists = new Map<string, number[]>();
  reviews.forEach((review, index) => {
    push(ratingLists, review.rating, index);
    for (const name of review.technicians) {
      const id = technicianIdByCanonical.get(name);
      if (id) push(technicianLists, id, index);
    }
    for (const id of review.service_ids) push(serviceLists, id, index);
    for (const gram of trigramsOf(folded[index]!)) push(trigramLists, gram, index);
  });
  const byRating = new Map(
    [...ratingLists].map(([rating, list]) => [rating, Uint32Array.from(list)]),
  );
  const byTechnician = toPostingLists(technicianLists);
  const byService = toPostingLists(serviceLists);
  const byTrigram = toPostingLists(trigramLists);
  const EMPTY = new Uint32Array(0);

  /** [start, end) of the reviews dated within since..until (reviews are sorted by date desc). */
  function dateRange(since?: string, until?: string): [number, number] {
    let start = 0;
    let end = count;
    if (until !== undefined) {
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (dates[mid]! > until) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    if (since !== undefined) {
      let lo = start;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (dates[mid]! >= since) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    return [start, Math.max(start, end)];
  }

  function match(params: SearchParams): Match {
    if (params.mentions_service !== undefined && !knownServiceIds.has(params.mentions_service)) {
      throw new ValidationError('invalid search parameters', [
        {
          path: ['mentions_service'],
          code: 'invalid_value',
          message: `unknown service id; known ids: ${[...knownServiceIds].join(', ')}`,
        },
      ]);
    }
    const [start, end] = dateRange(params.since, params.until);
    const lists: Uint32Array[] = [];
    const checks: ((index: number) => boolean)[] = [];

    if (params.rating !== undefined) {
      const rating = params.rating;
      if (params.min_rating !== undefined && rating < params.min_rating)
        return { total: 0, indices: [] };
      lists.push(byRating.get(rating) ?? EMPTY);
    } else if (params.min_rating !== undefined) {
      const min = params.min_rating;
      checks.push((index) => ratings[index]! >= min);
    }
    if (params.mentions_technician !== undefined) {
      const id = technicianByName.get(foldText(params.mentions_technician.trim()));
      lists.push(id === undefined ? EMPTY : (byTechnician.get(id) ?? EMPTY));
    }
    if (params.mentions_service !== undefined)
      lists.push(byService.get(params.mentions_service) ?? EMPTY);
    if (params.query !== undefined) {
      const needle = foldText(params.query);
      for (const gram of trigramsOf(needle)) lists.push(byTrigram.get(gram) ?? EMPTY);
      checks.push((index) => folded[index]!.includes(needle));
    }

    // Drive from the shortest posting list; the others become binary-search membership checks.
    const ranged = lists.map((list) => ({
      list,
      from: lowerBound(list, start),
      to: lowerBound(list, end),
    }));
    ranged.sort((a, b) => a.to - a.from - (b.to - b.from));
    const [driver, ...others] = ranged;
    for (const other of others) {
      const { list } = other;
      checks.unshift((index) => {
        const at = lowerBound(list, index);
        return at < list.length && list[at] === index;
      });
    }

    const limit = params.limit;
    const indices: number[] = [];
    if (checks.length === 0) {
      const total = driver ? driver.to - driver.from : end - start;
      for (let k = 0; k < Math.min(limit, total); k += 1)
        indices.push(driver ? driver.list[driver.from + k]! : start + k);
      return { total, indices };
    }
    let total = 0;
    const visit = (index: number) => {
      for (const check of checks) if (!check(index)) return;
      total += 1;
      if (indices.length < limit) indices.push(index);
    };
    if (driver) for (let k = driver.from; k < driver.to; k += 1) visit(driver.list[k]!);
    else for (let index = start; index < end; index += 1) visit(index);
    return { total, indices };
  }

  function sinceEnd(date: string): number {
    const result = IsoDateSchema.safeParse(date);
    if (!result.success) {
      const issues = toIssues(result.error).map((issue) => ({
        ...issue,
        path: ['date', ...issue.path],
      }));
      throw new ValidationError('invalid date', issues);
    }
    return dateRange(date)[1];
  }

  const joinJson = (from: Iterable<number>) => {
    const parts: string[] = [];
    for (const index of from) parts.push(json[index]!);
    return `[${parts.join(',')}]`;
  };
  const range = (end: number) => Array.from({ length: end }, (_, index) => index);

  return {
    reviews,
    search(params) {
      const { total, indices } = match(params);
      return {
        total,
        count: indices.length,
        limit: params.limit,
        reviews: indices.map((index) => reviews[index]!),
      };
    },
    searchJson(params) {
      const { total, indices } = match(params);
      return `{"total":${total},"count":${indices.length},"limit":${params.limit},"reviews":${joinJson(indices)}}`;
    },
    since(date) {
      const end = sinceEnd(date);
      return { since: date, count: end, reviews: reviews.slice(0, end) };
    },
    sinceJson(date) {
      const end = sinceEnd(date);
      return `{"since":${JSON.stringify(date)},"count":${end},"reviews":${joinJson(range(end))}}`;
    },
    getReview(id) {
      const index = byId.get(id);
      return index === undefined ? undefined : reviews[index];
    },
    resolveTechnician(name) {
      return technicianByName.get(foldText(name.trim()));
    },
  };
}
