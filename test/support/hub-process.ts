// Runs the real server (src/server.ts) as a child process, as the hub needs: NODE_EXTRA_CA_CERTS is
// read at process start, and durability tests kill it with SIGKILL and start it again. With
// HUB_TEST_STORE=postgres (the integration-pg project) each data dir stands for its own database on
// the test PostgreSQL server, so the same tests run against both stores.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { inject } from 'vitest';
import { FIXTURE_SITE_URL, ROOT } from './build-site.ts';

export interface HubProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Rows from the hub's store, read from the outside (sqlite `?` placeholders work on both). */
  rows(sql: string, ...params: (string | number)[]): Promise<Record<string, unknown>[]>;
  subscribe(fields: Record<string, string>): Promise<Response>;
  post(body: string, contentType?: string): Promise<Response>;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(ROOT, 'test-results', 'hub-data-'));
}

/** True when the hub tests run against PostgreSQL (the integration-pg project). */
export const usesPostgres = process.env.HUB_TEST_STORE === 'postgres';

// BIGINT and COUNT(*) come back as numbers, as they do from sqlite.
pg.types.setTypeParser(20, Number);

/** The database that stands for a data dir on the test PostgreSQL server, created on first use. */
async function databaseFor(dataDir: string, adminUrl: string): Promise<string> {
  const name = `hub_${path
    .basename(dataDir)
    .replace(/[^a-zA-Z0-9]/g, '_')
    .toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function startHubProcess(options: {
  distDir: string;
  caFile: string;
  dataDir?: string;
  env?: Record<string, string>;
  /** A PostgreSQL URL; by default the test server's database for the data dir under HUB_TEST_STORE=postgres. */
  databaseUrl?: string;
}): Promise<HubProcess> {
  const dataDir = options.dataDir ?? newDataDir();
  const databaseUrl =
    options.databaseUrl ??
    (usesPostgres ? await databaseFor(dataDir, inject('pgAdminUrl')) : undefined);
  const child = spawn(process.execPath, [path.join(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SITE_URL: FIXTURE_SITE_URL,
      DIST_DIR: options.distDir,
      DATA_DIR: dataDir,
      NODE_EXTRA_CA_CERTS: options.caFile,
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: '1',
      WEBSUB_RETRY_DELAYS_MS: '100,200',
      WEBSUB_TIMEOUT_MS: '2000',
      WEBSUB_RATE_LIMIT_PER_MINUTE: '10000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  const hubUrl = `${url}/api/websub/hub`;
  return {
    url,
    dataDir,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    async rows(sql, ...params) {
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          let n = 0;
          return (
            await client.query(
              sql.replace(/\?/g, () => `$${++n}`),
              params,
            )
          ).rows as Record<string, unknown>[];
        } finally {
          await client.end();
        }
      }
      const db = new DatabaseSync(path.join(dataDir, 'hub.sqlite'), { readOnly: true });
      try {
        return db.prepare(sql).all(...params) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    subscribe: (fields) =>
      fetch(hubUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    post: (body, contentType = 'application/x-www-form-urlencoded') =>
      fetch(hubUrl, { method: 'POST', headers: { 'Content-Type': contentType }, body }),
  };
}
