// The HubStore contract on PostgreSQL, plus migrations: concurrent start-ups and a failing one.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, test } from 'vitest';
import { migrate, MIGRATIONS, type Migration } from '../../../src/hub/pg-migrations.ts';
import { PgHubStore, StoreUnavailableError } from '../../../src/hub/pg-store.ts';
import { ROOT } from '../../support/build-site.ts';
import { testHubStoreContract } from '../../support/hub-store-contract.ts';

const opened: PgHubStore[] = [];
afterAll(() => Promise.all(opened.map((store) => store.close())));

async function newDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  const name = `store_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

testHubStoreContract(async () => {
  const store = await PgHubStore.open({ connectionString: await newDatabase() });
  opened.push(store);
  return store;
});

test('instances that start at once apply the migrations exactly once', async () => {
  const url = await newDatabase();
  const stores = await Promise.all(
    [1, 2, 3, 4].map(() => PgHubStore.open({ connectionString: url })),
  );
  opened.push(...stores);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT version FROM hub_migrations ORDER BY version');
    expect(rows).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
  } finally {
    await client.end();
  }
});

test('subscriptions saved with host:port (as the cap once counted them) are counted by host name after the migration', async () => {
  const url = await newDatabase();
  const pool = new pg.Pool({ connectionString: url });
  try {
    await migrate(pool, MIGRATIONS.slice(0, 1));
    for (const [callback, host] of [
      ['https://sub.example:8443/a', 'sub.example:8443'],
      ['https://sub.example/b', 'sub.example'],
      ['https://[2001:db8::1]:8443/c', '[2001:db8::1]:8443'],
      ['https://[2001:db8::1]/d', '[2001:db8::1]'],
    ])
      await pool.query(
        `INSERT INTO subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, verified_at)
         VALUES ($1, 'https://reviews.example/feed.xml', $2, NULL, 60, 2000000, 0, 1000000)`,
        [callback, host],
      );
    await migrate(pool);
  } finally {
    await pool.end();
  }
  const store = await PgHubStore.open({ connectionString: url });
  opened.push(store);
  expect(await store.countActiveSubscriptionsForHost('sub.example', 1_000_000)).toBe(2);
  expect(await store.countActiveSubscriptionsForHost('[2001:db8::1]', 1_000_000)).toBe(2);
});

test('a failing migration rolls back and is reported with its version and name', async () => {
  const url = await newDatabase();
  const pool = new pg.Pool({ connectionString: url });
  try {
    const broken: Migration[] = [
      { version: 1, name: 'fine', sql: 'CREATE TABLE fine (id INT)' },
      { version: 2, name: 'broken', sql: 'CREATE TABLE half (id INT); SELECT no_such_function()' },
    ];
    await expect(migrate(pool, broken)).rejects.toThrow(/migration 2 \(broken\) failed/);
    const { rows } = await pool.query(
      "SELECT to_regclass('half') AS half, to_regclass('fine') AS fine",
    );
    expect(rows[0]).toEqual({ half: null, fine: 'fine' });
  } finally {
    await pool.end();
  }
});

test('an unreachable database is a clear start-up error naming where it looked', async () => {
  await expect(
    PgHubStore.open({
      connectionString: 'postgres://nobody@127.0.0.1:9/none',
      connectTimeoutMs: 1000,
    }),
  ).rejects.toThrow(StoreUnavailableError);
  await expect(
    PgHubStore.open({
      connectionString: 'postgres://nobody@127.0.0.1:9/none',
      connectTimeoutMs: 1000,
    }),
  ).rejects.toThrow(/cannot reach the hub database at 127\.0\.0\.1:9\/none/);
});

test('the server stops at start-up with a clear message when the database is unreachable', async () => {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'src/server.ts')], {
    env: {
      ...process.env,
      PORT: '0',
      DIST_DIR: inject('fixtureDist'),
      DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('cannot reach the hub database at 127.0.0.1:9/none');
});
