// The hot read path, before Express: a GET or HEAD of a file held in memory (datasets, feeds) or
// of a search/since URL answered before is written straight from prepared bytes and headers.
// Anything else (first answers, errors, other methods, bodies) goes to the Express app, which
// answers identically (the same PreparedRepresentation and sendRepresentation).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRepresentation, type PreparedRepresentation } from './respond.ts';
import type { ReviewsApi } from './routes/reviews-api.ts';
import { isReadMethod } from './rules.ts';

export function createFastPath(
  inMemory: ReadonlyMap<string, PreparedRepresentation>,
  api: Pick<ReviewsApi, 'cachedForUrl'>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (!isReadMethod(req.method)) return false;
    const length = req.headers['content-length'];
    if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined)
      return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const prepared = inMemory.get(query < 0 ? url : url.slice(0, query)) ?? api.cachedForUrl(url);
    if (!prepared) return false;
    sendRepresentation(req, res, prepared);
    return true;
  };
}
