// GET /healthz reports the hub's store (sqlite, or postgres under HUB_TEST_STORE=postgres).
import { request } from 'node:http';
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

/** A GET as curl sends it: fetch adds Cache-Control: no-cache to a conditional request. */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${hub.url}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a conditional request is answered in full: a health check is never a 304', async () => {
  for (const headers of [
    { 'If-None-Match': '*' },
    { 'If-Modified-Since': new Date().toUTCString() },
  ]) {
    const response = await rawGet('/healthz', headers);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'ok' });
  }
  const head = await fetch(`${hub.url}/healthz`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
});
