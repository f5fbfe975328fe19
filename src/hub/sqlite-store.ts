// HubStore on node:sqlite, one file under DATA_DIR: the embedded default. Writes are synchronous
// and transactional, so a crash between two statements of one operation loses nothing.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
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

export const SQLITE_FILE = 'hub.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  callback TEXT NOT NULL,
  topic TEXT NOT NULL,
  callback_host TEXT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  verified_at INTEGER NOT NULL,
  PRIMARY KEY (callback, topic)
);
CREATE INDEX IF NOT EXISTS subscriptions_topic ON subscriptions (topic, expires_at);
CREATE INDEX IF NOT EXISTS subscriptions_host ON subscriptions (callback_host, expires_at);
CREATE TABLE IF NOT EXISTS verifications (
  id TEXT PRIMARY KEY,
  callback TEXT NOT NULL,
  topic TEXT NOT NULL,
  mode TEXT NOT NULL,
  lease_seconds INTEGER NOT NULL,
  secret TEXT,
  created_at INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  claimed_until INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS verifications_order ON verifications (seq);
CREATE TABLE IF NOT EXISTS topic_versions (
  hash TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  content_type TEXT NOT NULL,
  body BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS topic_state (
  topic TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  review_hashes TEXT
);
CREATE TABLE IF NOT EXISTS deliveries (
  callback TEXT NOT NULL,
  topic TEXT NOT NULL,
  version_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  claimed_until INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (callback, topic)
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (next_attempt_at);
`;

type Row = Record<string, SQLInputValue>;

function toSubscription(row: Row): Subscription {
  return {
    callback: String(row.callback),
    topic: String(row.topic),
    callbackHost: String(row.callback_host),
    secret: row.secret === null ? null : String(row.secret),
    leaseSeconds: Number(row.lease_seconds),
    expiresAt: Number(row.expires_at),
    failures: Number(row.failures),
    verifiedAt: Number(row.verified_at),
  };
}

function toDelivery(row: Row): Delivery {
  return {
    callback: String(row.callback),
    topic: String(row.topic),
    versionHash: String(row.version_hash),
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
  };
}

export class SqliteHubStore implements HubStore {
  readonly #db: DatabaseSync;
  #seq = 0;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#db.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;',
    );
    this.#db.exec(SCHEMA);
    // One process owns this file: claims left by a process that died are void on start.
    this.#db.exec(
      'UPDATE deliveries SET claimed_until = 0; UPDATE verifications SET claimed_until = 0;',
    );
    // Subscriptions saved when the cap counted each port apart carry host:port; a host is its name.
    const legacy = this.#db
      .prepare(
        "SELECT DISTINCT callback_host FROM subscriptions WHERE callback_host GLOB '*:[0-9]*'",
      )
      .all() as Row[];
    for (const { callback_host: host } of legacy) {
      const name = String(host).replace(/:\d+$/, '');
      if (name !== host)
        this.#db
          .prepare('UPDATE subscriptions SET callback_host = ? WHERE callback_host = ?')
          .run(name, String(host));
    }
    const row = this.#db
      .prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM verifications')
      .get() as Row;
    this.#seq = Number(row.seq);
  }

  static open(dataDir: string): SqliteHubStore {
    return new SqliteHubStore(path.join(dataDir, SQLITE_FILE));
  }

  #transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  async getSubscription(callback: string, topic: string): Promise<Subscription | undefined> {
    const row = this.#db
      .prepare('SELECT * FROM subscriptions WHERE callback = ? AND topic = ?')
      .get(callback, topic) as Row | undefined;
    return row ? toSubscription(row) : undefined;
  }

  async saveSubscription(s: Subscription): Promise<void> {
    this.#upsertSubscription(s);
  }

  #upsertSubscription(s: Subscription): void {
    this.#db
      .prepare(
        `INSERT INTO subscriptions (callback, topic, callback_host, secret, lease_seconds, expires_at, failures, verified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (callback, topic) DO UPDATE SET callback_host = excluded.callback_host, secret = excluded.secret,
           lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, failures = excluded.failures,
           verified_at = excluded.verified_at`,
      )
      .run(
        s.callback,
        s.topic,
        s.callbackHost,
        s.secret,
        s.leaseSeconds,
        s.expiresAt,
        s.failures,
        s.verifiedAt,
      );
  }

  async saveSubscriptionWithinCap(
    s: Subscription,
    maxForHost: number,
    now: number,
  ): Promise<boolean> {
    return this.#transaction(() => {
      const existing = this.#db
        .prepare('SELECT 1 FROM subscriptions WHERE callback = ? AND topic = ?')
        .get(s.callback, s.topic);
      if (!existing) {
        const row = this.#db
          .prepare(
            'SELECT COUNT(*) AS n FROM subscriptions WHERE callback_host = ? AND expires_at > ?',
          )
          .get(s.callbackHost, now) as Row;
        if (Number(row.n) >= maxForHost) return false;
      }
      this.#upsertSubscription(s);
      return true;
    });
  }

  async deleteSubscription(callback: string, topic: string): Promise<boolean> {
    return this.#transaction(() => {
      const removed = this.#db
        .prepare('DELETE FROM subscriptions WHERE callback = ? AND topic = ?')
        .run(callback, topic).changes;
      this.#db
        .prepare('DELETE FROM deliveries WHERE callback = ? AND topic = ?')
        .run(callback, topic);
      return Number(removed) > 0;
    });
  }

  async stats(now: number): Promise<HubStats> {
    const row = this.#db
      .prepare(
        `SELECT
           (SELECT COUNT(*) FROM subscriptions WHERE expires_at > ?) AS active,
           (SELECT COUNT(*) FROM subscriptions WHERE expires_at <= ?) AS expired,
           (SELECT COUNT(*) FROM verifications) AS verifications,
           (SELECT COUNT(*) FROM deliveries) AS deliveries`,
      )
      .get(now, now) as Row;
    return {
      activeSubscriptions: Number(row.active),
      expiredSubscriptions: Number(row.expired),
      pendingVerifications: Number(row.verifications),
      queuedDeliveries: Number(row.deliveries),
    };
  }

  async countActiveSubscriptionsForHost(callbackHost: string, now: number): Promise<number> {
    const row = this.#db
      .prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE callback_host = ? AND expires_at > ?')
      .get(callbackHost, now) as Row;
    return Number(row.n);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.#transaction(() => {
      this.#db
        .prepare(
          `DELETE FROM deliveries WHERE EXISTS (SELECT 1 FROM subscriptions s WHERE s.callback = deliveries.callback
             AND s.topic = deliveries.topic AND s.expires_at <= ?)`,
        )
        .run(now);
      return Number(
        this.#db.prepare('DELETE FROM subscriptions WHERE expires_at <= ?').run(now).changes,
      );
    });
  }

  async addVerification(v: PendingVerification): Promise<void> {
    this.#seq += 1;
    this.#db
      .prepare(
        'INSERT INTO verifications (id, callback, topic, mode, lease_seconds, secret, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(v.id, v.callback, v.topic, v.mode, v.leaseSeconds, v.secret, v.createdAt, this.#seq);
  }

  async claimVerifications(
    now: number,
    claimUntil: number,
    limit: number,
  ): Promise<PendingVerification[]> {
    return this.#transaction(() => {
      // The oldest intent of each (callback, topic) goes first; a newer one waits for it.
      const rows = this.#db
        .prepare(
          `SELECT v.* FROM verifications v
           WHERE v.claimed_until <= ? AND NOT EXISTS (
             SELECT 1 FROM verifications o WHERE o.callback = v.callback AND o.topic = v.topic AND o.seq < v.seq)
           ORDER BY v.seq LIMIT ?`,
        )
        .all(now, limit) as Row[];
      const claim = this.#db.prepare('UPDATE verifications SET claimed_until = ? WHERE id = ?');
      for (const row of rows) claim.run(claimUntil, row.id as string);
      return rows.map((row) => ({
        id: String(row.id),
        callback: String(row.callback),
        topic: String(row.topic),
        mode: row.mode === 'unsubscribe' ? 'unsubscribe' : 'subscribe',
        leaseSeconds: Number(row.lease_seconds),
        secret: row.secret === null ? null : String(row.secret),
        createdAt: Number(row.created_at),
      }));
    });
  }

  async deleteVerification(id: string): Promise<void> {
    this.#db.prepare('DELETE FROM verifications WHERE id = ?').run(id);
  }

  async getTopicState(topic: string): Promise<TopicState | undefined> {
    const row = this.#db
      .prepare('SELECT hash, review_hashes FROM topic_state WHERE topic = ?')
      .get(topic) as Row | undefined;
    if (!row) return undefined;
    return {
      hash: String(row.hash),
      reviewHashes:
        row.review_hashes === null
          ? null
          : (JSON.parse(String(row.review_hashes)) as Record<string, string>),
    };
  }

  async publish(
    version: TopicVersion,
    reviewHashes: Record<string, string> | null,
    now: number,
  ): Promise<PublishOutcome> {
    return this.#transaction(() => {
      const current = this.#db
        .prepare('SELECT hash FROM topic_state WHERE topic = ?')
        .get(version.topic) as Row | undefined;
      if (current && current.hash === version.hash) return { changed: false, queued: 0 };
      this.#db
        .prepare(
          'INSERT OR IGNORE INTO topic_versions (hash, topic, content_type, body) VALUES (?, ?, ?, ?)',
        )
        .run(version.hash, version.topic, version.contentType, version.body);
      this.#db
        .prepare(
          `INSERT INTO topic_state (topic, hash, review_hashes) VALUES (?, ?, ?)
           ON CONFLICT (topic) DO UPDATE SET hash = excluded.hash, review_hashes = excluded.review_hashes`,
        )
        .run(
          version.topic,
          version.hash,
          reviewHashes === null ? null : JSON.stringify(reviewHashes),
        );
      // A newer version replaces a pending retry of an older one; an in-flight claim is kept so
      // the two POSTs to that callback cannot overlap.
      const queued = this.#db
        .prepare(
          `INSERT INTO deliveries (callback, topic, version_hash, attempts, next_attempt_at)
           SELECT callback, topic, ?, 0, ? FROM subscriptions WHERE topic = ? AND expires_at > ?
           ON CONFLICT (callback, topic) DO UPDATE SET version_hash = excluded.version_hash, attempts = 0,
             next_attempt_at = excluded.next_attempt_at`,
        )
        .run(version.hash, now, version.topic, now).changes;
      this.#db
        .prepare(
          `DELETE FROM topic_versions WHERE hash NOT IN (SELECT hash FROM topic_state)
             AND hash NOT IN (SELECT version_hash FROM deliveries)`,
        )
        .run();
      return { changed: true, queued: Number(queued) };
    });
  }

  async getVersion(hash: string): Promise<TopicVersion | undefined> {
    const row = this.#db.prepare('SELECT * FROM topic_versions WHERE hash = ?').get(hash) as
      Row | undefined;
    if (!row) return undefined;
    return {
      hash: String(row.hash),
      topic: String(row.topic),
      contentType: String(row.content_type),
      body: Buffer.from(row.body as Uint8Array),
    };
  }

  async claimDeliveries(now: number, claimUntil: number, limit: number): Promise<Delivery[]> {
    return this.#transaction(() => {
      // One per callback, and none for a callback that has a POST in flight (claimed_until > now).
      const rows = this.#db
        .prepare(
          `SELECT d.* FROM deliveries d
           WHERE d.next_attempt_at <= ? AND d.claimed_until <= ?
             AND NOT EXISTS (SELECT 1 FROM deliveries b WHERE b.callback = d.callback AND b.claimed_until > ?)
           ORDER BY d.next_attempt_at, d.callback, d.topic`,
        )
        .all(now, now, now) as Row[];
      const claimed: Delivery[] = [];
      const callbacks = new Set<string>();
      const claim = this.#db.prepare(
        'UPDATE deliveries SET claimed_until = ? WHERE callback = ? AND topic = ?',
      );
      for (const row of rows) {
        if (claimed.length >= limit) break;
        const delivery = toDelivery(row);
        if (callbacks.has(delivery.callback)) continue;
        callbacks.add(delivery.callback);
        claim.run(claimUntil, delivery.callback, delivery.topic);
        claimed.push(delivery);
      }
      return claimed;
    });
  }

  async completeDelivery(d: Delivery): Promise<void> {
    this.#transaction(() => {
      this.#db
        .prepare('UPDATE subscriptions SET failures = 0 WHERE callback = ? AND topic = ?')
        .run(d.callback, d.topic);
      this.#releaseOrDelete(d);
    });
  }

  /** Deletes the delivery if it still carries the version just sent; else releases the claim for the newer one. */
  #releaseOrDelete(d: Delivery): void {
    const deleted = this.#db
      .prepare('DELETE FROM deliveries WHERE callback = ? AND topic = ? AND version_hash = ?')
      .run(d.callback, d.topic, d.versionHash).changes;
    if (Number(deleted) === 0) {
      this.#db
        .prepare('UPDATE deliveries SET claimed_until = 0 WHERE callback = ? AND topic = ?')
        .run(d.callback, d.topic);
    }
  }

  async failDelivery(d: Delivery, retryAt: number, maxFailures: number): Promise<number> {
    return this.#transaction(() => {
      const row = this.#db
        .prepare(
          'UPDATE subscriptions SET failures = failures + 1 WHERE callback = ? AND topic = ? RETURNING failures',
        )
        .get(d.callback, d.topic) as Row | undefined;
      // Gone while the attempt was in flight (unsubscribed, say): nothing to count or retry.
      if (!row) {
        this.#db
          .prepare('DELETE FROM deliveries WHERE callback = ? AND topic = ?')
          .run(d.callback, d.topic);
        return 0;
      }
      const failures = Number(row.failures);
      if (failures >= maxFailures) {
        this.#db
          .prepare('DELETE FROM subscriptions WHERE callback = ? AND topic = ?')
          .run(d.callback, d.topic);
        this.#db
          .prepare('DELETE FROM deliveries WHERE callback = ? AND topic = ?')
          .run(d.callback, d.topic);
        return failures;
      }
      const retried = this.#db
        .prepare(
          `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ?, claimed_until = 0
           WHERE callback = ? AND topic = ? AND version_hash = ?`,
        )
        .run(retryAt, d.callback, d.topic, d.versionHash).changes;
      if (Number(retried) === 0) {
        this.#db
          .prepare('UPDATE deliveries SET claimed_until = 0 WHERE callback = ? AND topic = ?')
          .run(d.callback, d.topic);
      }
      return failures;
    });
  }

  async dropDelivery(d: Delivery): Promise<void> {
    this.#transaction(() => this.#releaseOrDelete(d));
  }

  async nextDueAt(): Promise<number | undefined> {
    const row = this.#db.prepare('SELECT MIN(next_attempt_at) AS due FROM deliveries').get() as Row;
    return row.due === null ? undefined : Number(row.due);
  }

  async health(): Promise<StoreHealth> {
    try {
      this.#db.prepare('SELECT 1').get();
      return { store: 'sqlite', ok: true };
    } catch (error) {
      return { store: 'sqlite', ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
