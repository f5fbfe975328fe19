// The last route: browsers get the site's 404 page, API clients (and `*/*`) the JSON error; any
// method but GET and HEAD is a 405.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import type { PublishedSite } from '../published-site.ts';
import { sendError, sendMethodNotAllowed } from '../respond.ts';
import { READ_METHODS, isReadMethod } from '../rules.ts';

export function createNotFoundRoute(site: PublishedSite): RequestHandler {
  const notFoundPage = site.files.get('/404.html');
  return async (req, res) => {
    if (!isReadMethod(req.method)) return sendMethodNotAllowed(res, READ_METHODS);
    if (notFoundPage && req.accepts(['json', 'html']) === 'html') {
      const page = await readFile(path.join(site.clientDir, notFoundPage.file));
      res.status(404).set({ 'Content-Type': notFoundPage.type, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    sendError(res, 404, 'not_found', 'no such page or file; see /openapi.json for the endpoints');
  };
}
