// GET /healthz reports the hub's store (sqlite, or postgres under HUB_TEST_STORE=postgres).
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { startHubProcess, usesPostgres, type HubProcess } from '../../support/hub-process.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

let hub: HubProcess;
beforeAll(async () => {
  hub = await startHubProcess({
    distDir: inject('fixtureDist'),
    caFile: ensureTestCertificates().caFile,
  });
});
afterAll(() => hub.stop());

test('reports ok and which store the hub uses', async () => {
  const response = await fetch(`${hub.url}/healthz`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({
    status: 'ok',
    reviews: 6,
    store: { store: usesPostgres ? 'postgres' : 'sqlite', ok: true },
  });
});
