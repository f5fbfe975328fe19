// GET /healthz: for load balancers and orchestrators; 503 when the hub's store does not answer.
import type { RequestHandler } from 'express';
import type { StoreHealth } from '../../hub/store.ts';
import { CORS_HEADERS } from '../rules.ts';

export function createHealthRoute(
  reviews: number,
  health: (() => Promise<StoreHealth>) | undefined,
): RequestHandler {
  return async (_req, res) => {
    const store = health ? await health() : undefined;
    const ok = store === undefined || store.ok;
    const body = JSON.stringify({
      status: ok ? 'ok' : 'unavailable',
      reviews,
      store: store ?? null,
    });
    // Written as it is: res.json would answer a conditional request (If-None-Match: *) with a 304
    // and no body, and a health check is never cached or validated.
    res.status(ok ? 200 : 503).set({
      'Cache-Control': 'no-store',
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };
}
