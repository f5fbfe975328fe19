// Versioned schema migrations for the PostgreSQL hub store, applied at start-up. A session-level
// advisory lock serializes instances that start at once; each migration runs in its own
// transaction and is recorded in hub_migrations, so a failed one leaves the schema as it was.
import type { Pool, PoolClient } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Fixed key of the advisory lock that guards migrations (any int8; "websub" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x776562737562;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'hub tables',
    sql: `
      CREATE TABLE subscriptions (
        callback TEXT NOT NULL,
        topic TEXT NOT NULL,
        callback_host TEXT NOT NULL,
        secret TEXT,
        lease_seconds BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        failures INTEGER NOT NULL DEFAULT 0,
        verified_at BIGINT NOT NULL,
        PRIMARY KEY (callback, topic)
      );
      CREATE INDEX subscriptions_topic ON subscriptions (topic, expires_at);
      CREATE INDEX subscriptions_host ON subscriptions (callback_host, expires_at);
      CREATE TABLE verifications (
        id TEXT PRIMARY KEY,
        seq BIGSERIAL NOT NULL,
        callback TEXT NOT NULL,
        topic TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
        lease_seconds BIGINT NOT NULL,
        secret TEXT,
        created_at BIGINT NOT NULL,
        claimed_until BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX verifications_order ON verifications (callback, topic, seq);
      CREATE TABLE topic_versions (
        hash TEXT PRIMARY KEY,
        topic TEXT NOT NULL,
        content_type TEXT NOT NULL,
        body BYTEA NOT NULL
      );
      CREATE TABLE topic_state (
        topic TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        review_hashes JSONB
      );
      CREATE TABLE deliveries (
        callback TEXT NOT NULL,
        topic TEXT NOT NULL,
        version_hash TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        PRIMARY KEY (callback, topic)
      );
      CREATE INDEX deliveries_due ON deliveries (next_attempt_at);
      -- One row per callback with queued work: the unit that is claimed, so two POSTs to one
      -- callback never overlap, whichever instance sends them.
      CREATE TABLE callback_claims (
        callback TEXT PRIMARY KEY,
        claimed_until BIGINT NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 2,
    name: 'subscriptions counted by host name, not host and port',
    sql: `
      UPDATE subscriptions SET callback_host = regexp_replace(callback_host, ':[0-9]+$', '')
      WHERE callback_host ~ ':[0-9]+$';
    `,
  },
];

async function applied(client: PoolClient): Promise<Set<number>> {
  await client.query(`CREATE TABLE IF NOT EXISTS hub_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM hub_migrations');
  return new Set(rows.map((row) => row.version));
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** Applies the pending migrations in order; returns the versions it applied. */
export async function migrate(
  pool: Pool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  const done: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const existing = await applied(client);
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (existing.has(migration.version)) continue;
        try {
          await client.query('BEGIN');
          await client.query(migration.sql);
          await client.query('INSERT INTO hub_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await client.query('COMMIT');
          done.push(migration.version);
        } catch (error) {
          await client.query('ROLLBACK');
          throw new MigrationError(
            `migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
          );
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return done;
}
