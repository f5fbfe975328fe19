// HubStore on PostgreSQL (chosen when DATABASE_URL is set): any number of instances share one
// database. Work is claimed with SELECT … FOR UPDATE SKIP LOCKED and a claim expires, so a dead
// instance's verifications and deliveries are taken over; a callback is claimed as a whole, so
// two POSTs to it never overlap; change detection locks the topic's row, so a change pinged at
// two instances at once is distributed once.
import pg from 'pg';
import { migrate } from './pg-migrations.ts';
import type {
  HubStats,
  Delivery,
  HubStore,
  PendingVerification,
  PublishOutcome,
  StoreHealth,
  Subscription,
  TopicState,
  TopicVersion,
} from './store.ts';

export interface PgStoreOptions {
  connectionString: string;
  /** Connections per instance. */
  maxConnections?: number;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

interface SubscriptionRow {
  callback: string;
  topic: string;
  callback_host: string;
  secret: string | null;
  lease_seconds: string;
  expires_at: string;
  failures: number;
  verified_at: string;
}

interface DeliveryRow {
  callback: string;
  topic: string;
  version_hash: string;
  attempts: number;
  next_attempt_at: string;
}

const toSubscription = (row: SubscriptionRow): Subscription => ({
  callback: row.callback,
  topic: row.topic,
  callbackHost: row.callback_host,
  secret: row.secret,
  leaseSeconds: Number(row.lease_seconds),
  expiresAt: Number(row.expires_at),
  failures: row.failures,
  verifiedAt: Number(row.verified_at),
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  callback: row.callback,
  topic: row.topic,
  versionHash: row.version_hash,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
});

/** Where the database is, without the password, for messages. */
function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    return `${host}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export class PgHubStore implements HubStore {
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects, applies pending migrations and returns the store, or fails with a clear reason. */
  static async open(options: PgStoreOptions): Promise<PgHubStore> {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      statement_timeout: options.statementTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const target = describeTarget(options.connectionString);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw new StoreUnavailableError(
        `cannot reach the hub database at ${target}: ${(error as Error).message}`,
      );
    }
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end();
      throw new StoreUnavailableError(
        `cannot prepare the hub database at ${target}: ${(error as Error).message}`,
      );
    }
    return new PgHubStore(pool);
  }

  async #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        // The connection may already be gone; the error below is the one worth reporting.
      });
      throw error;
    } finally {
      client.release();
    }
  }

  async getSubscription(callback: string, topic: string): Promise<Subscription | undefined> {
    const { rows } = await this.#pool.query<SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE callback = $1 AND topic = $2',
      [callback, topic],
    );
    return rows[0] ? toSubscription(rows[0]) : undefined;
  }

  /** Inserts or replaces one subscription, on the pool or inside a transaction's client. */
  async #upsertSubscription(db: pg.Pool | pg.PoolClient, s: Subscription): Promise<void> {
    await db.query(
      `INSERT INTO subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, verified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (callback, topic) DO UPDATE SET callback_host = EXCLUDED.callback_host, secret = EXCLUDED.secret,
         lease_seconds = EXCLUDED.lease_seconds, expires_at = EXCLUDED.expires_at, failures = EXCLUDED.failures,
         verified_at = EXCLUDED.verified_at`,
      [
        s.callback,
        s.topic,
        s.callbackHost,
        s.secret,
        s.leaseSeconds,
        s.expiresAt,
        s.failures,
        s.verifiedAt,
      ],
    );
  }

  async saveSubscription(s: Subscription): Promise<void> {
    await this.#upsertSubscription(this.#pool, s);
  }

  async saveSubscriptionWithinCap(
    s: Subscription,
    maxForHost: number,
    now: number,
  ): Promise<boolean> {
    return this.#transaction(async (client) => {
      // One host's saves wait for each other, across instances, until the transaction ends.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `subscriptions-of ${s.callbackHost}`,
      ]);
      const { rows } = await client.query<{ existing: boolean; active: string }>(
        `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE callback = $1 AND topic = $2) AS existing,
           (SELECT COUNT(*) FROM subscriptions WHERE callback_host = $3 AND expires_at > $4) AS active`,
        [s.callback, s.topic, s.callbackHost, now],
      );
      if (!rows[0]!.existing && Number(rows[0]!.active) >= maxForHost) return false;
      await this.#upsertSubscription(client, s);
      return true;
    });
  }

  async deleteSubscription(callback: string, topic: string): Promise<boolean> {
    return this.#transaction(async (client) => {
      const { rowCount } = await client.query(
        'DELETE FROM subscriptions WHERE callback = $1 AND topic = $2',
        [callback, topic],
      );
      await client.query('DELETE FROM deliveries WHERE callback = $1 AND topic = $2', [
        callback,
        topic,
      ]);
      return (rowCount ?? 0) > 0;
    });
  }

  async stats(now: number): Promise<HubStats> {
    const { rows } = await this.#pool.query<Record<string, string>>(
      `SELECT
         (SELECT COUNT(*) FROM subscriptions WHERE expires_at > $1) AS active,
         (SELECT COUNT(*) FROM subscriptions WHERE expires_at <= $1) AS expired,
         (SELECT COUNT(*) FROM verifications) AS verifications,
         (SELECT COUNT(*) FROM deliveries) AS deliveries`,
      [now],
    );
    const row = rows[0]!;
    return {
      activeSubscriptions: Number(row.active),
      expiredSubscriptions: Number(row.expired),
      pendingVerifications: Number(row.verifications),
      queuedDeliveries: Number(row.deliveries),
    };
  }

  async countActiveSubscriptionsForHost(callbackHost: string, now: number): Promise<number> {
    const { rows } = await this.#pool.query<{ n: string }>(
      'SELECT COUNT(*) AS n FROM subscriptions WHERE callback_host = $1 AND expires_at > $2',
      [callbackHost, now],
    );
    return Number(rows[0]!.n);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.#transaction(async (client) => {
      await client.query(
        `DELETE FROM deliveries d USING subscriptions s
         WHERE s.callback = d.callback AND s.topic = d.topic AND s.expires_at <= $1`,
        [now],
      );
      const { rowCount } = await client.query('DELETE FROM subscriptions WHERE expires_at <= $1', [
        now,
      ]);
      return rowCount ?? 0;
    });
  }

  async addVerification(v: PendingVerification): Promise<void> {
    await this.#pool.query(
      'INSERT INTO verifications (id, callback, topic, mode, lease_seconds, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [v.id, v.callback, v.topic, v.mode, v.leaseSeconds, v.secret, v.createdAt],
    );
  }

  async claimVerifications(
    now: number,
    claimUntil: number,
    limit: number,
  ): Promise<PendingVerification[]> {
    if (limit <= 0) return [];
    const { rows } = await this.#pool.query<{
      id: string;
      callback: string;
      topic: string;
      mode: 'subscribe' | 'unsubscribe';
      lease_seconds: string;
      secret: string | null;
      created_at: string;
    }>(
      `WITH picked AS (
         SELECT v.id FROM verifications v
         WHERE v.claimed_until <= $1
           AND NOT EXISTS (SELECT 1 FROM verifications o WHERE o.callback = v.callback AND o.topic = v.topic AND o.seq < v.seq)
         ORDER BY v.seq LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE verifications SET claimed_until = $2 FROM picked WHERE verifications.id = picked.id
       RETURNING verifications.*`,
      [now, claimUntil, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      callback: row.callback,
      topic: row.topic,
      mode: row.mode,
      leaseSeconds: Number(row.lease_seconds),
      secret: row.secret,
      createdAt: Number(row.created_at),
    }));
  }

  async deleteVerification(id: string): Promise<void> {
    await this.#pool.query('DELETE FROM verifications WHERE id = $1', [id]);
  }

  async getTopicState(topic: string): Promise<TopicState | undefined> {
    const { rows } = await this.#pool.query<{
      hash: string;
      review_hashes: Record<string, string> | null;
    }>("SELECT hash, review_hashes FROM topic_state WHERE topic = $1 AND hash <> ''", [topic]);
    return rows[0] ? { hash: rows[0].hash, reviewHashes: rows[0].review_hashes } : undefined;
  }

  async publish(
    version: TopicVersion,
    reviewHashes: Record<string, string> | null,
    now: number,
  ): Promise<PublishOutcome> {
    return this.#transaction(async (client) => {
      // Lock the topic's row: a second instance pinged at the same moment waits here and then
      // sees the hash this one recorded.
      await client.query(
        "INSERT INTO topic_state (topic, hash) VALUES ($1, '') ON CONFLICT (topic) DO NOTHING",
        [version.topic],
      );
      const { rows } = await client.query<{ hash: string }>(
        'SELECT hash FROM topic_state WHERE topic = $1 FOR UPDATE',
        [version.topic],
      );
      if (rows[0]?.hash === version.hash) return { changed: false, queued: 0 };
      await client.query(
        'INSERT INTO topic_versions (hash, topic, content_type, body) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING',
        [version.hash, version.topic, version.contentType, version.body],
      );
      await client.query('UPDATE topic_state SET hash = $2, review_hashes = $3 WHERE topic = $1', [
        version.topic,
        version.hash,
        reviewHashes === null ? null : JSON.stringify(reviewHashes),
      ]);
      // A newer version replaces a pending retry of an older one.
      const queued = await client.query(
        `INSERT INTO deliveries (callback, topic, version_hash, attempts, next_attempt_at)
         SELECT callback, topic, $1, 0, $2 FROM subscriptions WHERE topic = $3 AND expires_at > $2
         ON CONFLICT (callback, topic) DO UPDATE SET version_hash = EXCLUDED.version_hash, attempts = 0,
           next_attempt_at = EXCLUDED.next_attempt_at`,
        [version.hash, now, version.topic],
      );
      await client.query(
        `INSERT INTO callback_claims (callback) SELECT DISTINCT callback FROM subscriptions WHERE topic = $1 AND expires_at > $2
         ON CONFLICT (callback) DO NOTHING`,
        [version.topic, now],
      );
      await client.query(
        `DELETE FROM topic_versions v WHERE NOT EXISTS (SELECT 1 FROM topic_state s WHERE s.hash = v.hash)
           AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.version_hash = v.hash)`,
      );
      return { changed: true, queued: queued.rowCount ?? 0 };
    });
  }

  async getVersion(hash: string): Promise<TopicVersion | undefined> {
    const { rows } = await this.#pool.query<{
      hash: string;
      topic: string;
      content_type: string;
      body: Buffer;
    }>('SELECT * FROM topic_versions WHERE hash = $1', [hash]);
    const row = rows[0];
    return row
      ? { hash: row.hash, topic: row.topic, contentType: row.content_type, body: row.body }
      : undefined;
  }

  async claimDeliveries(now: number, claimUntil: number, limit: number): Promise<Delivery[]> {
    if (limit <= 0) return [];
    return this.#transaction(async (client) => {
      const { rows } = await client.query<DeliveryRow>(
        `WITH picked AS (
           SELECT c.callback FROM callback_claims c
           WHERE c.claimed_until <= $1
             AND EXISTS (SELECT 1 FROM deliveries d WHERE d.callback = c.callback AND d.next_attempt_at <= $1)
           ORDER BY c.callback LIMIT $3 FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE callback_claims SET claimed_until = $2 FROM picked WHERE callback_claims.callback = picked.callback
           RETURNING callback_claims.callback)
         SELECT DISTINCT ON (d.callback) d.* FROM deliveries d JOIN claimed USING (callback)
         WHERE d.next_attempt_at <= $1
         ORDER BY d.callback, d.next_attempt_at, d.topic`,
        [now, claimUntil, limit],
      );
      return rows.map(toDelivery);
    });
  }

  async completeDelivery(d: Delivery): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query(
        'UPDATE subscriptions SET failures = 0 WHERE callback = $1 AND topic = $2',
        [d.callback, d.topic],
      );
      await client.query(
        'DELETE FROM deliveries WHERE callback = $1 AND topic = $2 AND version_hash = $3',
        [d.callback, d.topic, d.versionHash],
      );
      await this.#release(client, d.callback);
    });
  }

  /** Frees the callback for its next delivery, and forgets it when nothing is queued for it. */
  async #release(client: pg.PoolClient, callback: string): Promise<void> {
    await client.query('UPDATE callback_claims SET claimed_until = 0 WHERE callback = $1', [
      callback,
    ]);
    await client.query(
      'DELETE FROM callback_claims c WHERE c.callback = $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.callback = c.callback)',
      [callback],
    );
  }

  async failDelivery(d: Delivery, retryAt: number, maxFailures: number): Promise<number> {
    return this.#transaction(async (client) => {
      const { rows } = await client.query<{ failures: number }>(
        'UPDATE subscriptions SET failures = failures + 1 WHERE callback = $1 AND topic = $2 RETURNING failures',
        [d.callback, d.topic],
      );
      // Gone while the attempt was in flight (unsubscribed, say): nothing to count or retry.
      const failures = rows[0]?.failures ?? 0;
      if (rows.length === 0) {
        await client.query('DELETE FROM deliveries WHERE callback = $1 AND topic = $2', [
          d.callback,
          d.topic,
        ]);
      } else if (failures >= maxFailures) {
        await client.query('DELETE FROM subscriptions WHERE callback = $1 AND topic = $2', [
          d.callback,
          d.topic,
        ]);
        await client.query('DELETE FROM deliveries WHERE callback = $1 AND topic = $2', [
          d.callback,
          d.topic,
        ]);
      } else {
        await client.query(
          `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = $4
           WHERE callback = $1 AND topic = $2 AND version_hash = $3`,
          [d.callback, d.topic, d.versionHash, retryAt],
        );
      }
      await this.#release(client, d.callback);
      return failures;
    });
  }

  async dropDelivery(d: Delivery): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query(
        'DELETE FROM deliveries WHERE callback = $1 AND topic = $2 AND version_hash = $3',
        [d.callback, d.topic, d.versionHash],
      );
      await this.#release(client, d.callback);
    });
  }

  async nextDueAt(): Promise<number | undefined> {
    const { rows } = await this.#pool.query<{ due: string | null }>(
      'SELECT MIN(next_attempt_at) AS due FROM deliveries',
    );
    return rows[0]?.due === null || rows[0]?.due === undefined ? undefined : Number(rows[0].due);
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.#pool.query('SELECT 1');
      return { store: 'postgres', ok: true };
    } catch (error) {
      return { store: 'postgres', ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
