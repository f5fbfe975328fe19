// The in-memory search index over what the build prepared (search-data.ts): posting lists per
// rating, technician and service; a hashed byte-trigram index over the folded text so `query`
// checks only candidate reviews; and answers assembled from byte ranges of the reviews.json body,
// never re-serialized. Opened once per process by the server.
import { IsoDateSchema } from './dates.ts';
import { ValidationError, toIssues } from './errors.ts';
import { compareNewestFirst, type Business, type Review } from './review.ts';
import type { SearchParams, SearchResult, SinceResult } from './search.ts';
import { buildSearchData, type SearchColumns } from './search-data.ts';
import { LruCache } from './lru-cache.ts';
import { foldText } from './text.ts';

export interface ReviewIndex {
  readonly count: number;
  search(params: SearchParams): SearchResult;
  /** The search response body, assembled from the records' bytes. */
  searchBody(params: SearchParams): Buffer;
  since(date: string): SinceResult;
  sinceBody(date: string): Buffer;
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
  /** The folded search text (UTF-8). */
  folded: Buffer;
}

// Hashed trigram buckets: collisions only add candidates, which the substring check removes.
const BUCKET_BITS = 20;
const BUCKETS = 1 << BUCKET_BITS;
/** Buckets in more than this share of reviews are not stored: they would not narrow a search. */
const STOP_SHARE = 0.2;
const EMPTY = new Uint32Array(0);
const MATCH_CACHE_ENTRIES = 1000;

/** The reviews a search matches: how many in all, and the first `limit` of them. */
interface Match {
  total: number;
  indices: number[];
  /** For the cache's bound: entries, roughly. */
  size: number;
}
/** Checking one review's text costs about as much as scanning this many reviews with memmem. */
const AVERAGE_SCAN_COST = 8;

function bucketOf(a: number, b: number, c: number): number {
  return (
    (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>>
    (32 - BUCKET_BITS)
  );
}

/** First position in `list` (ascending) whose value is >= `value`. */
function lowerBound(list: ArrayLike<number>, value: number, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function postingLists(
  count: number,
  keysOf: (index: number) => readonly number[],
  keys: number,
): Uint32Array[] {
  const lists: number[][] = Array.from({ length: keys }, () => []);
  for (let index = 0; index < count; index += 1)
    for (const key of new Set(keysOf(index))) lists[key]?.push(index);
  return lists.map((list) => Uint32Array.from(list));
}

interface TrigramIndex {
  starts: Uint32Array;
  postings: Uint32Array;
  stopped: Uint8Array;
}

/** Two passes over the folded bytes: count per bucket (once per review), then fill. */
function buildTrigrams(folded: Buffer, offsets: readonly number[], count: number): TrigramIndex {
  const counts = new Uint32Array(BUCKETS);
  const last = new Int32Array(BUCKETS).fill(-1);
  for (let doc = 0; doc < count; doc += 1) {
    const end = offsets[doc + 1]! - 1;
    for (let i = offsets[doc]!; i + 2 < end; i += 1) {
      const bucket = bucketOf(folded[i]!, folded[i + 1]!, folded[i + 2]!);
      if (last[bucket] !== doc) {
        last[bucket] = doc;
        counts[bucket]! += 1;
      }
    }
  }
  const limit = Math.max(64, Math.floor(count * STOP_SHARE));
  const stopped = new Uint8Array(BUCKETS);
  const starts = new Uint32Array(BUCKETS + 1);
  for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
    const size = counts[bucket]!;
    if (size > limit) stopped[bucket] = 1;
    starts[bucket + 1] = starts[bucket]! + (size > limit ? 0 : size);
  }
  const postings = new Uint32Array(starts[BUCKETS]!);
  const fill = starts.slice(0, BUCKETS);
  last.fill(-1);
  for (let doc = 0; doc < count; doc += 1) {
    const end = offsets[doc + 1]! - 1;
    for (let i = offsets[doc]!; i + 2 < end; i += 1) {
      const bucket = bucketOf(folded[i]!, folded[i + 1]!, folded[i + 2]!);
      if (last[bucket] !== doc && stopped[bucket] === 0) {
        last[bucket] = doc;
        postings[fill[bucket]!++] = doc;
      }
    }
  }
  return { starts, postings, stopped };
}

export function openReviewIndex({ reviewsJson, columns, folded }: IndexSource): ReviewIndex {
  const {
    business,
    ids,
    dates,
    ratings,
    record_offsets: recordOffsets,
    folded_offsets: foldedOffsets,
  } = columns;
  const count = ids.length;
  const byId = new Map(ids.map((id, index) => [id, index]));
  const ratingOf = Uint8Array.from(ratings);
  const byRating = postingLists(count, (index) => [ratings[index]!], 6);
  const byTechnician = postingLists(
    count,
    (index) => columns.technicians[index]!,
    business.technicians.length,
  );
  const byService = postingLists(
    count,
    (index) => columns.services[index]!,
    business.services.length,
  );
  const serviceIndex = new Map(business.services.map((service, index) => [service.id, index]));
  const technicianByName = new Map<string, number>();
  business.technicians.forEach((technician, index) => {
    for (const name of [technician.id, technician.name, ...(technician.aliases ?? [])]) {
      technicianByName.set(foldText(name.trim()), index);
    }
  });
  const trigrams = buildTrigrams(folded, foldedOffsets, count);

  /** [start, end) of the reviews dated within since..until (reviews are sorted by date desc). */
  function dateRange(since?: string, until?: string): [number, number] {
    let start = 0;
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
    let end = count;
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

  /** Reviews in [start, end) whose folded text contains `needle`, ascending. */
  function scanMatches(needle: Buffer, start: number, end: number): Uint32Array {
    const found: number[] = [];
    const limit = foldedOffsets[end]!;
    let position = folded.indexOf(needle, foldedOffsets[start]!);
    while (position !== -1 && position < limit) {
      const doc = lowerBound(foldedOffsets, position + 1) - 1;
      if (position + needle.length <= foldedOffsets[doc + 1]! - 1) {
        found.push(doc);
        position = folded.indexOf(needle, foldedOffsets[doc + 1]!);
      } else {
        position = folded.indexOf(needle, position + 1);
      }
    }
    return Uint32Array.from(found);
  }

  function containsNeedle(index: number, needle: Buffer): boolean {
    return (
      folded.subarray(foldedOffsets[index]!, foldedOffsets[index + 1]! - 1).indexOf(needle) !== -1
    );
  }

  // The same parameters always match the same reviews until the next build: remember recent ones
  // (MCP calls and first HTTP answers both come through here).
  const recentMatches = new LruCache<Match>(MATCH_CACHE_ENTRIES, MATCH_CACHE_ENTRIES * 110);

  function cachedMatch(params: SearchParams): Match {
    const key = JSON.stringify(params);
    let found = recentMatches.get(key);
    if (!found) {
      found = match(params);
      recentMatches.set(key, found);
    }
    return found;
  }

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
    const lists: Uint32Array[] = [];
    const checks: ((index: number) => boolean)[] = [];
    if (params.rating !== undefined) {
      if (params.min_rating !== undefined && params.rating < params.min_rating)
        return { total: 0, indices: [], size: 1 };
      lists.push(byRating[params.rating] ?? EMPTY);
    } else if (params.min_rating !== undefined) {
      const min = params.min_rating;
      checks.push((index) => ratingOf[index]! >= min);
    }
    if (params.mentions_technician !== undefined) {
      const technician = technicianByName.get(foldText(params.mentions_technician.trim()));
      lists.push(technician === undefined ? EMPTY : byTechnician[technician]!);
    }
    if (params.mentions_service !== undefined)
      lists.push(byService[serviceIndex.get(params.mentions_service)!]!);
    if (params.query !== undefined) {
      const needle = Buffer.from(foldText(params.query), 'utf8');
      let narrowed = false;
      for (let i = 0; i + 2 < needle.length; i += 1) {
        const bucket = bucketOf(needle[i]!, needle[i + 1]!, needle[i + 2]!);
        if (trigrams.stopped[bucket] === 0) {
          narrowed = true;
          lists.push(
            trigrams.postings.subarray(trigrams.starts[bucket], trigrams.starts[bucket + 1]),
          );
        }
      }
      const smallest = Math.min(...lists.map((list) => list.length));
      if (narrowed || smallest * AVERAGE_SCAN_COST < end - start) {
        checks.push((index) => containsNeedle(index, needle));
      } else {
        // Only common trigrams (or a needle under 3 bytes) and no small list: one pass of memmem
        // over the folded text of the date range finds the matching reviews exactly.
        lists.push(scanMatches(needle, start, end));
      }
    }

    // Drive from the shortest posting list within the date range; the others are membership checks.
    const ranged = lists.map((list) => ({
      list,
      from: lowerBound(list, start),
      to: lowerBound(list, end),
    }));
    ranged.sort((a, b) => a.to - a.from - (b.to - b.from));
    const [driver, ...others] = ranged;
    for (const { list, from, to } of others) {
      checks.unshift((index) => {
        const at = lowerBound(list, index, from, to);
        return at < to && list[at] === index;
      });
    }
    const indices: number[] = [];
    const limit = params.limit;
    if (checks.length === 0) {
      const total = driver ? driver.to - driver.from : end - start;
      for (let k = 0; k < Math.min(limit, total); k += 1)
        indices.push(driver ? driver.list[driver.from + k]! : start + k);
      return { total, indices, size: indices.length + 1 };
    }
    let total = 0;
    const visit = (index: number) => {
      for (const check of checks) if (!check(index)) return;
      total += 1;
      if (indices.length < limit) indices.push(index);
    };
    if (driver) for (let k = driver.from; k < driver.to; k += 1) visit(driver.list[k]!);
    else for (let index = start; index < end; index += 1) visit(index);
    return { total, indices, size: indices.length + 1 };
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

  return {
    count,
    search(params) {
      const { total, indices } = cachedMatch(params);
      return { total, count: indices.length, limit: params.limit, reviews: indices.map(parse) };
    },
    searchBody(params) {
      const { total, indices } = cachedMatch(params);
      const head = Buffer.from(
        `{"total":${total},"count":${indices.length},"limit":${params.limit},"reviews":[`,
      );
      return Buffer.concat([head, ...recordsArray(indices), CLOSE]);
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
      const end = sinceEnd(date);
      const head = Buffer.from(`{"since":${JSON.stringify(date)},"count":${end},"reviews":[`);
      // Reviews since a date are a prefix of the dataset, so their records are one byte range.
      const body =
        end === 0
          ? Buffer.alloc(0)
          : reviewsJson.subarray(recordOffsets[0]!, recordOffsets[2 * end - 1]!);
      return Buffer.concat([head, body, CLOSE]);
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

/** Builds the search data in memory and opens it: for tests and small in-process uses. */
export function createReviewIndex(reviews: readonly Review[], business: Business): ReviewIndex {
  const sorted = [...reviews].sort(compareNewestFirst);
  const data = buildSearchData(business, sorted);
  return openReviewIndex({
    reviewsJson: Buffer.from(data.reviewsJson),
    columns: data.columns,
    folded: Buffer.from(data.folded),
  });
}
