// GET/HEAD /api/reviews/search and /api/reviews/since/{date}: parse → core index → ready bytes.
// Answers are cached per canonical parameters: they cannot change until the next build.
import type { Request, Response } from 'express';
import { computeEtag } from '../../core/http-cache.ts';
import { LruCache } from '../../core/lru-cache.ts';
import { parseSearchQuery } from '../../core/search.ts';
import { CONTENT_TYPES, DATASET_CACHE_CONTROL } from '../../core/site.ts';
import type { PublishedSite } from '../published-site.ts';
import { sendRepresentation } from '../respond.ts';

interface CachedBody {
  body: Buffer;
  etag: string;
  size: number;
}

const CACHE_ENTRIES = 2000;
const CACHE_BYTES = 64 * 1024 * 1024;

export function createReviewsApi(site: PublishedSite) {
  const cache = new LruCache<CachedBody>(CACHE_ENTRIES, CACHE_BYTES);

  function answer(req: Request, res: Response, key: string, render: () => Buffer): void {
    let entry = cache.get(key);
    if (!entry) {
      const body = render();
      entry = { body, etag: computeEtag(body), size: body.length };
      cache.set(key, entry);
    }
    sendRepresentation(req, res, {
      body: entry.body,
      etag: entry.etag,
      type: CONTENT_TYPES.json,
      cacheControl: DATASET_CACHE_CONTROL,
      lastModified: site.lastModified,
    });
  }

  return {
    search(req: Request, res: Response): void {
      const params = parseSearchQuery(new URL(req.originalUrl, 'http://localhost').searchParams);
      answer(req, res, `search:${JSON.stringify(params)}`, () => site.index.searchBody(params));
    },
    since(req: Request, res: Response): void {
      const date = String(req.params.date);
      answer(req, res, `since:${date}`, () => site.index.sinceBody(date));
    },
  };
}
