// The hub route when the hub's store cannot answer: another process holding the SQLite database
// (a backup, an sqlite3 shell) is a 503 with Retry-After, not a 500.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import express from 'express';
import { afterEach, expect, test } from 'vitest';
import { SqliteHubStore } from '../../hub/sqlite-store.ts';
import { isStoreUnavailable } from '../../hub/store.ts';
import { TRUST_NOTHING } from '../client-address.ts';
import { createHubRoute, STORE_UNAVAILABLE_MESSAGE } from './hub.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The error the hub's store gives while another connection holds its database. */
async function lockedStoreError(): Promise<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hub-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'hub.sqlite');
  const store = new SqliteHubStore(file);
  const other = new DatabaseSync(file);
  other.exec('BEGIN EXCLUSIVE');
  try {
    // The store waits out its busy timeout (5 s), then gives up.
    await store.addVerification({
      id: 'v1',
      callback: 'https://sub.example/cb',
      topic: 'https://reviews.example.com/feed.xml',
      mode: 'subscribe',
      leaseSeconds: 3600,
      secret: null,
      createdAt: 0,
    });
  } catch (error) {
    return error;
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  throw new Error('the locked store did not fail');
}

test(
  'a store held by another process is unavailable; other errors are not',
  { timeout: 20_000 },
  async () => {
    expect(isStoreUnavailable(await lockedStoreError())).toBe(true);
    expect(
      isStoreUnavailable(Object.assign(new Error('x'), { name: 'StoreUnavailableError' })),
    ).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isStoreUnavailable(new TypeError('a bug'))).toBe(false);
    expect(
      isStoreUnavailable(
        Object.assign(new Error('constraint'), { code: 'ERR_SQLITE_ERROR', errcode: 19 }),
      ),
    ).toBe(false);
  },
);

test(
  'a hub request while the store is locked is a 503 with Retry-After, and a bug is still a 500',
  { timeout: 20_000 },
  async () => {
    let failure: unknown = await lockedStoreError();
    const hub = {
      handle: async () => {
        throw failure;
      },
      publish: async () => [],
      start: () => {},
      stop: async () => {},
      kick: () => {},
    };
    const route = createHubRoute(hub, TRUST_NOTHING);
    const app = express();
    app.all('/hub', (req, res, next) => {
      route(req, res).catch(next);
    });
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: unknown) => {
      res.status(500).send('internal');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hub`;
    const post = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'hub.mode=publish&hub.topic=x',
      });
    const locked = await post();
    expect(locked.status).toBe(503);
    expect(locked.headers.get('retry-after')).toBe('5');
    expect(await locked.text()).toContain(STORE_UNAVAILABLE_MESSAGE);
    failure = new TypeError('a bug');
    expect((await post()).status).toBe(500);
  },
);
