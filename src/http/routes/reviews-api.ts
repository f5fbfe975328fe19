// GET/HEAD /api/reviews/search and /api/reviews/since/{date}: parse → core index → ready bytes.
// Answers are cached per canonical parameters, and per raw URL for the fast path (fast-path.ts):
// they cannot change until the next build. An answer's bytes follow from the dataset and its
// canonical parameters alone, so its ETag is a hash of the dataset's ETag and those parameters:
// the same content gives the same ETag, a change to the dataset gives a new one, and no answer
// body is hashed.
import type { Request, Response } from 'express';
import { ValidationError } from '../../core/errors.ts';
import { computeEtag } from '../../core/http-cache.ts';
import { LruCache } from '../../core/lru-cache.ts';
import { parseSearchQuery } from '../../core/search.ts';
import { CONTENT_TYPES, DATASET_CACHE_CONTROL, PATHS } from '../../core/site.ts';
import type { PublishedSite } from '../published-site.ts';
import {
  bodyLength,
  prepareRepresentation,
  sendRepresentation,
  type PreparedRepresentation,
} from '../respond.ts';

interface CachedAnswer {
  answer: PreparedRepresentation;
  size: number;
}

const CACHE_ENTRIES = 2000;
const CACHE_BYTES = 64 * 1024 * 1024;
/** Answers are cached from their second request; this many first requests are remembered. */
const SEEN_KEYS = 20_000;

export interface ReviewsApi {
  search(req: Request, res: Response): void;
  since(req: Request, res: Response): void;
  /** The answer already given to exactly this request URL, if still cached. */
  cachedForUrl(url: string): PreparedRepresentation | undefined;
}

/**
 * The query string's parameters. URLSearchParams keeps a malformed escape ("%E0%A4%A", "100%") as
 * typed, so a search would quietly look for it: it is refused instead, as it is in a path.
 */
function queryOf(url: string): URLSearchParams {
  const params = new URL(url, 'http://localhost').searchParams;
  const at = url.indexOf('?');
  if (at >= 0)
    try {
      decodeURIComponent(url.slice(at + 1));
    } catch {
      throw new ValidationError('invalid query string', [
        {
          path: [],
          code: 'invalid_encoding',
          message:
            'the query string is not valid percent-encoded UTF-8: write % as %25, and escape each byte as % and two hex digits',
        },
      ]);
    }
  return params;
}

export function createReviewsApi(site: PublishedSite): ReviewsApi {
  const datasetEtag = site.files.get(PATHS.reviews)?.etag ?? '';
  const byParams = new LruCache<CachedAnswer>(CACHE_ENTRIES, CACHE_BYTES);
  // The same entries as byParams, by raw URL; its own bound keeps evicted ones from piling up.
  const byUrl = new LruCache<CachedAnswer>(CACHE_ENTRIES * 2, CACHE_BYTES);

  // Keys asked for once, recently: an answer is cached only when asked for again, so a crawler's
  // thousands of distinct searches do not push the popular ones out. Answers are kept as their
  // parts, slices of the dataset's bytes: caching one copies nothing (copying them kept the garbage
  // collector busy enough to show in tail latency).
  const seen = new LruCache<{ size: number }>(SEEN_KEYS, SEEN_KEYS);

  function answer(req: Request, res: Response, key: string, render: () => Buffer[]): void {
    const cached = byParams.get(key);
    if (cached) {
      byUrl.set(req.originalUrl, cached);
      sendRepresentation(req, res, cached.answer);
      return;
    }
    const body = render();
    const again = seen.get(key) !== undefined;
    const answer = prepareRepresentation({
      body,
      etag: computeEtag(`${datasetEtag} ${key}`),
      type: CONTENT_TYPES.json,
      cacheControl: DATASET_CACHE_CONTROL,
      lastModified: site.lastModified,
    });
    if (again) {
      const entry = { answer, size: bodyLength(body) };
      byParams.set(key, entry);
      byUrl.set(req.originalUrl, entry);
    } else {
      seen.set(key, { size: 1 });
    }
    sendRepresentation(req, res, answer);
  }

  return {
    search(req, res) {
      const params = parseSearchQuery(queryOf(req.originalUrl));
      answer(req, res, `search:${JSON.stringify(params)}`, () => site.index.searchParts(params));
    },
    since(req, res) {
      const names = [...new Set(queryOf(req.originalUrl).keys())];
      if (names.length > 0)
        throw new ValidationError(
          'invalid parameters',
          names.slice(0, 20).map((name) => ({
            path: [name],
            code: 'unrecognized_keys',
            message: `unknown parameter "${name}": this endpoint takes none (every review on or after the date, newest first)`,
          })),
        );
      const date = String(req.params.date);
      answer(req, res, `since:${date}`, () => site.index.sinceParts(date));
    },
    cachedForUrl(url) {
      return byUrl.get(url)?.answer;
    },
  };
}
