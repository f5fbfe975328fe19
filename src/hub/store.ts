// The hub's storage interface: subscriptions, pending verifications, distributed topic versions
// and a durable delivery queue. node:sqlite implements it (sqlite-store.ts); a networked store can
// implement the same contract. All times are epoch milliseconds passed in by the caller.

export type IntentMode = 'subscribe' | 'unsubscribe';

/** SQLite's result codes for a database another connection holds (SQLITE_BUSY, SQLITE_LOCKED). */
const SQLITE_BUSY_CODES = new Set([5, 6]);
/** Connection failures, and PostgreSQL's "shutting down", "starting up" and "too many clients". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P03',
  '53300',
]);

/**
 * Whether a store's error means it cannot answer right now (locked by another process, such as a
 * backup, or unreachable), which is a 503 to retry, not a fault of the request or the server.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'StoreUnavailableError') return true;
  const { code, errcode } = error as Error & { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number')
    return SQLITE_BUSY_CODES.has(errcode & 0xff);
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

export interface Subscription {
  callback: string;
  topic: string;
  /** The callback's host name, without its port: what the per-host cap counts. */
  callbackHost: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  /** Consecutive failed delivery attempts; a 2xx resets it; three in a row remove the subscription. */
  failures: number;
  verifiedAt: number;
}

export interface PendingVerification {
  id: string;
  callback: string;
  topic: string;
  mode: IntentMode;
  leaseSeconds: number;
  secret: string | null;
  createdAt: number;
}

export interface TopicVersion {
  hash: string;
  topic: string;
  contentType: string;
  body: Buffer;
}

export interface Delivery {
  callback: string;
  topic: string;
  versionHash: string;
  attempts: number;
  nextAttemptAt: number;
}

export interface TopicState {
  hash: string;
  /** Review id → hash of its record, for reporting what a change added, changed and removed. */
  reviewHashes: Record<string, string> | null;
}

export interface PublishOutcome {
  changed: boolean;
  /** Deliveries queued (one per active subscriber of the topic). */
  queued: number;
}

export interface StoreHealth {
  store: 'sqlite' | 'postgres';
  ok: boolean;
  detail?: string;
}

/** Counts for the operator's metrics. */
export interface HubStats {
  activeSubscriptions: number;
  /** Leases that ran out and are not purged yet. */
  expiredSubscriptions: number;
  pendingVerifications: number;
  /** Deliveries waiting (due now or later, retries included). */
  queuedDeliveries: number;
}

export interface HubStore {
  getSubscription(callback: string, topic: string): Promise<Subscription | undefined>;
  /** Creates or replaces the subscription (a re-subscription renews the lease and resets failures). */
  saveSubscription(subscription: Subscription): Promise<void>;
  /**
   * Saves a verified subscription unless it is new and its callback host already has `maxForHost`
   * active ones (at `now`); true when saved. One check-and-save, so that verifications finishing
   * together (on any instance) cannot take a host past the cap.
   */
  saveSubscriptionWithinCap(
    subscription: Subscription,
    maxForHost: number,
    now: number,
  ): Promise<boolean>;
  /** Removes the subscription and any delivery queued for it; true when there was one. */
  deleteSubscription(callback: string, topic: string): Promise<boolean>;
  countActiveSubscriptionsForHost(callbackHost: string, now: number): Promise<number>;
  /** Drops subscriptions whose lease has run out, and their queued deliveries. */
  purgeExpired(now: number): Promise<number>;

  addVerification(verification: PendingVerification): Promise<void>;
  /** Oldest pending verifications first, at most one per (callback, topic), claimed until `claimUntil`. */
  claimVerifications(
    now: number,
    claimUntil: number,
    limit: number,
  ): Promise<PendingVerification[]>;
  deleteVerification(id: string): Promise<void>;

  getTopicState(topic: string): Promise<TopicState | undefined>;
  /**
   * Atomically: if `version.hash` differs from what was last distributed for the topic, record it
   * as distributed and queue it for every subscriber active at `now` (replacing any pending retry
   * of an older version). Unchanged versions queue nothing.
   */
  publish(
    version: TopicVersion,
    reviewHashes: Record<string, string> | null,
    now: number,
  ): Promise<PublishOutcome>;
  getVersion(hash: string): Promise<TopicVersion | undefined>;

  /** Due deliveries, at most one per callback and none for a callback already claimed. */
  claimDeliveries(now: number, claimUntil: number, limit: number): Promise<Delivery[]>;
  /** A 2xx: the delivery is done and the subscription's failure counter resets. */
  completeDelivery(delivery: Delivery): Promise<void>;
  /**
   * A failed attempt: increments the subscription's failures. Below `maxFailures` the delivery is
   * retried at `retryAt`; at `maxFailures` the subscription is removed. Returns the new failure count,
   * or 0 when the subscription is gone (removed while the attempt was in flight): its deliveries are
   * dropped, and it is neither removed again nor told it was denied.
   */
  failDelivery(delivery: Delivery, retryAt: number, maxFailures: number): Promise<number>;
  /** Releases a claim without counting an attempt (e.g. the subscription has expired). */
  dropDelivery(delivery: Delivery): Promise<void>;
  nextDueAt(): Promise<number | undefined>;

  stats(now: number): Promise<HubStats>;
  /** For /healthz: which store, and whether it answers. */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}
