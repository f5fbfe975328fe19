// GET/HEAD of every pre-rendered file (datasets, feeds, pages, assets) from the build manifest, with
// its content-hash ETag, exact Content-Type, Last-Modified, Cache-Control and, on the three WebSub
// topics, the Link header (docs/decisions.md#http).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { cacheControlForPath, isTopicPath, topicLinkHeader } from '../../core/site.ts';
import type { PublishedSite, StaticFile } from '../published-site.ts';
import { READ_METHODS, isReadMethod } from '../rules.ts';
import {
  prepareRepresentation,
  sendError,
  sendMethodNotAllowed,
  sendRepresentation,
  type PreparedRepresentation,
  type Representation,
} from '../respond.ts';

function representationOf(
  site: PublishedSite,
  siteUrl: string,
  urlPath: string,
  entry: StaticFile,
  body: Buffer,
): Representation {
  return {
    body,
    etag: entry.etag,
    type: entry.type,
    cacheControl: cacheControlForPath(urlPath),
    lastModified: site.lastModified,
    link: isTopicPath(urlPath) ? topicLinkHeader(siteUrl, urlPath) : undefined,
  };
}

/** Headers of the files held in memory (datasets, feeds), computed once at start-up. */
export function prepareInMemoryFiles(
  site: PublishedSite,
  siteUrl: string,
): Map<string, PreparedRepresentation> {
  const prepared = new Map<string, PreparedRepresentation>();
  for (const [urlPath, entry] of site.files) {
    if (entry.bytes)
      prepared.set(
        urlPath,
        prepareRepresentation(representationOf(site, siteUrl, urlPath, entry, entry.bytes)),
      );
  }
  return prepared;
}

export function createStaticFiles(
  site: PublishedSite,
  siteUrl: string,
  inMemory: ReadonlyMap<string, PreparedRepresentation>,
) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      sendError(res, 400, 'invalid_request', 'the path is not valid percent-encoding');
      return;
    }
    const entry = site.files.get(urlPath);
    if (!entry) {
      // `/reviews/<id>` → `/reviews/<id>/`, the record's canonical `url`.
      if (!urlPath.endsWith('/') && site.files.has(`${urlPath}/`)) {
        const query = req.originalUrl.slice(req.path.length);
        if (!isReadMethod(req.method)) return sendMethodNotAllowed(res, READ_METHODS);
        res.redirect(301, `${req.path}/${query}`);
        return;
      }
      next();
      return;
    }
    if (!isReadMethod(req.method)) return sendMethodNotAllowed(res, READ_METHODS);
    const prepared = inMemory.get(urlPath);
    if (prepared) return sendRepresentation(req, res, prepared);
    const bytes = await readFile(path.join(site.clientDir, entry.file));
    sendRepresentation(req, res, representationOf(site, siteUrl, urlPath, entry, bytes));
  };
}
