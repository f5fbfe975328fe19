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
    res.status(ok ? 200 : 503).set({ 'Cache-Control': 'no-store', ...CORS_HEADERS });
    res.json({ status: ok ? 'ok' : 'unavailable', reviews, store: store ?? null });
  };
}
