// The in-memory search index over what the build prepared (search-data.ts): bitsets per rating,
// technician and service; a suffix array over the folded text that gives the exact reviews
// containing a query at a bounded cost (substring-index.ts); and answers assembled from byte ranges
// of the reviews.json body, never re-serialized. Opened once per process by the server.
import { IsoDateSchema } from './dates.ts';
import { ValidationError, toIssues } from './errors.ts';
import { compareNewestFirst, type Business, type Review } from './review.ts';
import type { SearchParams, SearchResult, SinceResult } from './search.ts';
import { buildSearchData, type SearchColumns } from './search-data.ts';
import {
  bitsetOf,
  emptyBitset,
  intersectRange,
  unionInto,
  wordsFor,
  type Bitset,
} from './bitset.ts';
import { LruCache } from './lru-cache.ts';
import { buildSubstringData, openSubstringIndex, type SubstringData } from './substring-index.ts';
import { foldText } from './text.ts';

export interface ReviewIndex {
  readonly count: number;
  search(params: SearchParams): SearchResult;
  /** The search response body, assembled from the records' bytes. */
  searchBody(params: SearchParams): Buffer;
  /** The same body as its parts, slices of the dataset's bytes (nothing copied). */
  searchParts(params: SearchParams): Buffer[];
  since(date: string): SinceResult;
  sinceBody(date: string): Buffer;
  sinceParts(date: string): Buffer[];
  /** Reviews `offset` to `offset + limit` of a search's matches, and how many match in all. */
  searchPage(params: SearchParams, offset: number): { total: number; reviews: Review[] };
  /** Reviews `offset` to `offset + limit` of those dated on or after `date`, and how many in all. */
  sincePage(date: string, offset: number, limit: number): { total: number; reviews: Review[] };
  getReview(id: string): Review | undefined;
}

export interface IndexSource {
  /** The `/reviews.json` body the offsets in `columns` point into. */
  reviewsJson: Buffer;
  columns: SearchColumns;
  /** The folded search text (UTF-8, each review followed by the separator byte). */
  folded: Buffer;
  /** Its suffix array and frequent-substring sets, prepared by the build. */
  substrings: SubstringData;
}

const MATCH_CACHE_ENTRIES = 1000;
const NEEDLE_CACHE_ENTRIES = 4000;
const NEEDLE_CACHE_BYTES = 32 * 1024 * 1024;
/** Needles mapped from fewer occurrences than this are cheaper to map again than to remember. */
const NEEDLE_CACHE_MIN_SCANNED = 2048;

/** The reviews a search matches: how many in all, and the first `limit` of them. */
interface Match {
  total: number;
  indices: number[];
  /** For the cache's bound: entries, roughly. */
  size: number;
}

/**
 * One bitset per key: the reviews having that key (a rating, a technician, a service). Sets with few
 * members are kept as lists and turned into a bitset when a search asks for them.
 */
function keySets(
  count: number,
  keysOf: (index: number) => readonly number[],
  keys: number,
): (key: number) => Bitset {
  const lists: number[][] = Array.from({ length: keys }, () => []);
  for (let index = 0; index < count; index += 1)
    for (const key of new Set(keysOf(index))) lists[key]?.push(index);
  const words = wordsFor(count);
  const dense = lists.map((list) => list.length >= words);
  const stored = lists.map((list, key) =>
    dense[key] ? bitsetOf(count, list) : Uint32Array.from(list),
  );
  return (key) => {
    const set = stored[key];
    if (set === undefined) return emptyBitset(count);
    return dense[key] ? set : bitsetOf(count, set);
  };
}

/** A date as the number YYYYMMDD: ordered as the date strings are, in a quarter of the memory. */
function dayNumber(date: string): number {
  return Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8));
}

/**
 * The filter sets, built in a function of their own so that nothing the index keeps holds on to
 * the parsed columns (at 100k reviews, hundreds of thousands of small arrays).
 */
function filterSets(columns: SearchColumns) {
  const { business, ratings } = columns;
  const count = ratings.length;
  const byRating = keySets(count, (index) => [ratings[index]!], 6);
  // Reviews rated at least r, for r = 1..5 (min_rating rounds up: ratings are whole stars).
  const atLeast: Bitset[] = [];
  for (let rating = 5; rating >= 1; rating -= 1) {
    const set = byRating(rating).slice();
    if (rating < 5) unionInto(set, atLeast[rating + 1]!);
    atLeast[rating] = set;
  }
  const technicianByName = new Map<string, number>();
  business.technicians.forEach((technician, index) => {
    for (const name of [technician.id, technician.name, ...(technician.aliases ?? [])]) {
      technicianByName.set(foldText(name.trim()), index);
    }
  });
  return {
    byRating,
    atLeast,
    byTechnician: keySets(
      count,
      (index) => columns.technicians[index]!,
      business.technicians.length,
    ),
    byService: keySets(count, (index) => columns.services[index]!, business.services.length),
    serviceIndex: new Map(business.services.map((service, index) => [service.id, index])),
    technicianByName,
  };
}

export interface IndexOptions {
  /** Off: every search is computed afresh (for measuring what an uncached search costs). */
  caches?: boolean;
}

export function openReviewIndex(
  { reviewsJson, columns, folded, substrings }: IndexSource,
  { caches = true }: IndexOptions = {},
): ReviewIndex {
  const count = columns.ids.length;
  const byId = new Map(columns.ids.map((id, index) => [id, index]));
  const days = Int32Array.from(columns.dates, dayNumber);
  const recordOffsets = Float64Array.from(columns.record_offsets);
  const foldedOffsets = Uint32Array.from(columns.folded_offsets);
  const { byRating, atLeast, byTechnician, byService, serviceIndex, technicianByName } =
    filterSets(columns);
  const text = openSubstringIndex(folded, foldedOffsets, substrings);

  /** [start, end) of the reviews dated within since..until (reviews are sorted by date desc). */
  function dateRange(since?: string, until?: string): [number, number] {
    let start = 0;
    if (until !== undefined) {
      const last = dayNumber(until);
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (days[mid]! > last) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    let end = count;
    if (since !== undefined) {
      const first = dayNumber(since);
      let lo = start;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (days[mid]! >= first) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    return [start, Math.max(start, end)];
  }

  // A query word is often asked again with other filters (a rating, a service, a date range):
  // remember the review sets of recent needles that had to be mapped occurrence by occurrence
  // (the frequent ones are prepared already).
  const recentNeedles = new LruCache<{ set: Bitset; size: number }>(
    NEEDLE_CACHE_ENTRIES,
    NEEDLE_CACHE_BYTES,
  );
  function reviewsContaining(needle: Buffer): Bitset {
    const key = needle.toString('latin1');
    const found = caches ? recentNeedles.get(key) : undefined;
    if (found) return found.set;
    const set = text.reviewsContaining(needle);
    if (caches && text.cost(needle).scanned > NEEDLE_CACHE_MIN_SCANNED)
      recentNeedles.set(key, { set, size: set.byteLength });
    return set;
  }

  // The same parameters always match the same reviews until the next build: remember recent ones
  // (MCP calls and first HTTP answers both come through here).
  const recentMatches = new LruCache<Match>(MATCH_CACHE_ENTRIES, MATCH_CACHE_ENTRIES * 110);

  function cachedMatch(params: SearchParams): Match {
    if (!caches) return match(params);
    const key = JSON.stringify(params);
    let found = recentMatches.get(key);
    if (!found) {
      found = match(params);
      recentMatches.set(key, found);
    }
    return found;
  }

  // Every filter is a bitset over review numbers (the date range is a contiguous run of them), so a
  // search costs one pass over count / 32 words per filter, whatever it matches; the text filter
  // costs a bounded lookup in the substring index.
  function match(params: SearchParams): Match {
    if (params.mentions_service !== undefined && !serviceIndex.has(params.mentions_service)) {
      throw new ValidationError('invalid search parameters', [
        {
          path: ['mentions_service'],
          code: 'invalid_value',
          message: `unknown service id; known ids: ${[...serviceIndex.keys()].join(', ')}`,
        },
      ]);
    }
    const [start, end] = dateRange(params.since, params.until);
    const sets: Bitset[] = [];
    if (params.rating !== undefined) {
      if (params.min_rating !== undefined && params.rating < params.min_rating)
        return { total: 0, indices: [], size: 1 };
      sets.push(byRating(params.rating));
    } else if (params.min_rating !== undefined && params.min_rating > 1) {
      sets.push(atLeast[Math.ceil(params.min_rating)]!);
    }
    if (params.mentions_technician !== undefined) {
      const technician = technicianByName.get(foldText(params.mentions_technician.trim()));
      if (technician === undefined) return { total: 0, indices: [], size: 1 };
      sets.push(byTechnician(technician));
    }
    if (params.mentions_service !== undefined)
      sets.push(byService(serviceIndex.get(params.mentions_service)!));
    if (params.query !== undefined) {
      const needle = Buffer.from(foldText(params.query), 'utf8');
      // A query that folds to nothing (a lone combining mark) is in every review's text.
      if (needle.length > 0) sets.push(reviewsContaining(needle));
    }
    const { total, first } = intersectRange(sets, start, end, params.limit);
    return { total, indices: first, size: first.length + 1 };
  }

  const record = (index: number) =>
    reviewsJson.subarray(recordOffsets[2 * index]!, recordOffsets[2 * index + 1]!);
  const parse = (index: number) => JSON.parse(record(index).toString('utf8')) as Review;
  const COMMA = Buffer.from(',');
  const CLOSE = Buffer.from(']}');

  function recordsArray(indices: readonly number[]): Buffer[] {
    const parts: Buffer[] = [];
    indices.forEach((index, k) => {
      if (k > 0) parts.push(COMMA);
      parts.push(record(index));
    });
    return parts;
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

  function searchParts(params: SearchParams): Buffer[] {
    const { total, indices } = cachedMatch(params);
    const head = Buffer.from(
      `{"total":${total},"count":${indices.length},"limit":${params.limit},"reviews":[`,
    );
    return [head, ...recordsArray(indices), CLOSE];
  }

  function sinceParts(date: string): Buffer[] {
    const end = sinceEnd(date);
    const head = Buffer.from(`{"since":${JSON.stringify(date)},"count":${end},"reviews":[`);
    // Reviews since a date are a prefix of the dataset, so their records are one byte range.
    const body =
      end === 0
        ? Buffer.alloc(0)
        : reviewsJson.subarray(recordOffsets[0]!, recordOffsets[2 * end - 1]!);
    return [head, body, CLOSE];
  }

  return {
    count,
    search(params) {
      const { total, indices } = cachedMatch(params);
      return { total, count: indices.length, limit: params.limit, reviews: indices.map(parse) };
    },
    searchParts,
    sinceParts,
    searchBody(params) {
      return Buffer.concat(searchParts(params));
    },
    since(date) {
      const end = sinceEnd(date);
      return {
        since: date,
        count: end,
        reviews: Array.from({ length: end }, (_, index) => parse(index)),
      };
    },
    sinceBody(date) {
      return Buffer.concat(sinceParts(date));
    },
    searchPage(params, offset) {
      const { total, indices } = cachedMatch({ ...params, limit: offset + params.limit });
      return { total, reviews: indices.slice(offset).map(parse) };
    },
    sincePage(date, offset, limit) {
      const end = sinceEnd(date);
      const reviews: Review[] = [];
      for (let index = offset; index < Math.min(end, offset + limit); index += 1)
        reviews.push(parse(index));
      return { total: end, reviews };
    },
    getReview(id) {
      const index = byId.get(id);
      return index === undefined ? undefined : parse(index);
    },
  };
}

/**
 * Builds the search data in memory and opens it: for tests and small in-process uses.
 * `frequentMinSuffixes` lowers the frequent-substring threshold, so small tests exercise both ways
 * a query is answered.
 */
export function createReviewIndex(
  reviews: readonly Review[],
  business: Business,
  options: { frequentMinSuffixes?: number } = {},
): ReviewIndex {
  const sorted = [...reviews].sort(compareNewestFirst);
  const data = buildSearchData(business, sorted);
  const offsets = Uint32Array.from(data.columns.folded_offsets);
  return openReviewIndex({
    reviewsJson: Buffer.from(data.reviewsJson),
    columns: data.columns,
    folded: data.folded,
    substrings: buildSubstringData(data.folded, offsets, options.frequentMinSuffixes),
  });
}
