// GET/HEAD of every pre-rendered file (datasets, feeds, pages, assets) from the build manifest, with
// its content-hash ETag, exact Content-Type, Last-Modified, Cache-Control and, on the three WebSub
// topics, the Link header (DECISIONS §5).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { cacheControlForPath, isTopicPath, topicLinkHeader } from '../../core/site.ts';
import type { PublishedSite } from '../published-site.ts';
import { sendError, sendMethodNotAllowed, sendRepresentation } from '../respond.ts';

export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

export function createStaticFiles(site: PublishedSite, siteUrl: string) {
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
        if (req.method !== 'GET' && req.method !== 'HEAD')
          return sendMethodNotAllowed(res, READ_METHODS);
        res.redirect(301, `${req.path}/${query}`);
        return;
      }
      next();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendMethodNotAllowed(res, READ_METHODS);
    const bytes = entry.bytes ?? (await readFile(path.join(site.clientDir, entry.file)));
    sendRepresentation(req, res, {
      body: bytes,
      etag: entry.etag,
      type: entry.type,
      cacheControl: cacheControlForPath(urlPath),
      lastModified: site.lastModified,
      link: isTopicPath(urlPath) ? topicLinkHeader(siteUrl, urlPath) : undefined,
    });
  };
}
