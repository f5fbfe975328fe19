// The WebSub hub (W3C WebSub §5–§7; docs/decisions.md#websub-hub): answers hub requests at once, then verifies
// intents and delivers notifications from a durable queue in the background. Created by
// src/server.ts with a store, an outbound fetcher and the built topics; transport-free.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { TOPIC_PATHS, absoluteUrl, topicLinkHeader, type TopicPath } from '../core/site.ts';
import { checkCallbackHost, type Fetcher } from './http-client.ts';
import { RateLimiter } from './rate-limit.ts';
import { HubRequestError, parseHubRequest, type LeasePolicy } from './requests.ts';
import type { Delivery, HubStore, PendingVerification } from './store.ts';

/** Spec §8: consecutive delivery failures before the hub unsubscribes the callback. */
export const MAX_CONSECUTIVE_FAILURES = 3;
export const CALLBACK_RATE_LIMIT_PER_MINUTE = 10;
const ANSWER_BYTES = 1024;
const POLL_MS = 1000;
/** Expired subscriptions are swept this often; deliveries already skip them on their own. */
const PURGE_EVERY_MS = 60_000;

export interface TopicContent {
  body: Buffer;
  contentType: string;
}

export interface HubOptions {
  store: HubStore;
  fetcher: Fetcher;
  siteUrl: string;
  /** The bytes and Content-Type a GET of the topic serves (the hub's own build). */
  topicContent: (path: TopicPath) => TopicContent;
  lease: LeasePolicy;
  retryDelaysMs: readonly number[];
  maxSubscriptionsPerHost: number;
  rateLimitPerMinute: number;
  allowPrivateCallbacks: boolean;
  claimSeconds: number;
  /** Deadline of every verification, delivery and denial request. */
  timeoutMs: number;
  concurrency?: number;
  now?: () => number;
  log?: (message: string) => void;
  /** Every verification, delivery attempt and subscription removal, for logs and metrics. */
  onEvent?: (event: HubEvent) => void;
}

/** What the hub did, one event per verification, delivery attempt and removal. */
export type HubEvent =
  | {
      kind: 'verification';
      mode: 'subscribe' | 'unsubscribe';
      callback: string;
      topic: string;
      outcome: 'verified' | 'refused';
      detail?: string;
    }
  | {
      kind: 'delivery';
      callback: string;
      topic: string;
      /** delivered: 2xx; failed: will be retried or removed; gone: 410; skipped: lease expired. */
      outcome: 'delivered' | 'failed' | 'gone' | 'skipped';
      status: number;
      attempt: number;
      detail?: string;
    }
  | { kind: 'removal'; callback: string; topic: string; reason: string };

export interface HubAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface TopicReport {
  topic: string;
  changed: boolean;
  queued: number;
  reviews: { added: number; changed: number; removed: number; first: boolean } | null;
}

function sha256(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Review id → hash of its record, from the reviews dataset bytes. */
function reviewHashesOf(body: Buffer): Record<string, string> {
  const dataset = JSON.parse(body.toString('utf8')) as { reviews: { id: string }[] };
  const hashes: Record<string, string> = {};
  for (const review of dataset.reviews)
    hashes[review.id] = sha256(JSON.stringify(review)).slice(0, 16);
  return hashes;
}

function diffReviews(
  before: Record<string, string> | null | undefined,
  after: Record<string, string>,
) {
  if (!before) return { added: Object.keys(after).length, changed: 0, removed: 0, first: true };
  let added = 0;
  let changed = 0;
  for (const [id, hash] of Object.entries(after)) {
    if (!(id in before)) added += 1;
    else if (before[id] !== hash) changed += 1;
  }
  const removed = Object.keys(before).filter((id) => !(id in after)).length;
  return { added, changed, removed, first: false };
}

export function describeReports(reports: readonly TopicReport[]): string {
  return reports
    .map((report) => {
      if (!report.changed) return `${report.topic}: unchanged, nothing sent`;
      const reviews = report.reviews
        ? report.reviews.first
          ? ` (first distribution: ${report.reviews.added} reviews)`
          : ` (reviews: ${report.reviews.added} added, ${report.reviews.changed} changed, ${report.reviews.removed} removed)`
        : '';
      return `${report.topic}: changed${reviews}, notifying ${report.queued} subscriber${report.queued === 1 ? '' : 's'}`;
    })
    .join('\n');
}

export class Hub {
  readonly #o: Required<Omit<HubOptions, 'log' | 'onEvent'>> & {
    log: (message: string) => void;
    onEvent: (event: HubEvent) => void;
  };
  readonly #ipLimiter: RateLimiter;
  readonly #callbackLimiter = new RateLimiter(CALLBACK_RATE_LIMIT_PER_MINUTE);
  readonly #topicPaths: Map<string, TopicPath>;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #stopped = true;
  #ticking: Promise<void> | undefined;
  #rerun = false;
  #lastPurge = Number.NEGATIVE_INFINITY;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: HubOptions) {
    this.#o = { concurrency: 16, now: Date.now, log: () => {}, onEvent: () => {}, ...options };
    this.#ipLimiter = new RateLimiter(options.rateLimitPerMinute);
    this.#topicPaths = new Map(
      TOPIC_PATHS.map((path) => [absoluteUrl(options.siteUrl, path), path]),
    );
  }

  /** Answers one hub request (the form already read); verification and delivery follow later. */
  async handle(form: URLSearchParams, clientIp: string): Promise<HubAnswer> {
    const now = this.#o.now();
    const byIp = this.#ipLimiter.take(clientIp, now);
    if (!byIp.allowed)
      return this.#tooMany(byIp.retryAfterSeconds, 'too many hub requests from this address');
    let request;
    try {
      request = parseHubRequest(form, this.#o.siteUrl, this.#o.lease);
    } catch (error) {
      if (error instanceof HubRequestError) return { status: error.status, body: error.message };
      throw error;
    }
    if (request.kind === 'publish') {
      const reports = await this.publish(request.topics);
      return { status: 202, body: `${describeReports(reports)}\n` };
    }
    const byCallback = this.#callbackLimiter.take(request.callback.href, now);
    if (!byCallback.allowed)
      return this.#tooMany(byCallback.retryAfterSeconds, 'too many requests for this callback');
    const refused = await checkCallbackHost(request.callback, this.#o.allowPrivateCallbacks);
    if (refused) return { status: 400, body: refused };
    if (request.mode === 'subscribe') {
      const existing = await this.#o.store.getSubscription(request.callback.href, request.topic);
      const active = await this.#o.store.countActiveSubscriptionsForHost(
        request.callback.host,
        now,
      );
      if (!existing && active >= this.#o.maxSubscriptionsPerHost) {
        return {
          status: 403,
          body: `the callback host ${request.callback.host} has ${active} subscriptions, the most allowed`,
        };
      }
    }
    await this.#o.store.addVerification({
      id: randomBytes(16).toString('hex'),
      callback: request.callback.href,
      topic: request.topic,
      mode: request.mode,
      leaseSeconds: request.leaseSeconds,
      secret: request.secret,
      createdAt: now,
    });
    this.kick();
    return {
      status: 202,
      body: `${request.mode} request accepted; the callback will be asked to verify it\n`,
    };
  }

  #tooMany(retryAfterSeconds: number, message: string): HubAnswer {
    return {
      status: 429,
      body: `${message}; retry after ${retryAfterSeconds} s`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    };
  }

  /** Compares each topic's bytes with what was last distributed and queues notifications on change. */
  async publish(topics: readonly string[]): Promise<TopicReport[]> {
    const reports: TopicReport[] = [];
    const now = this.#o.now();
    for (const topic of topics) {
      const path = this.#topicPaths.get(topic);
      if (!path) throw new HubRequestError(400, `unknown topic ${topic}`);
      const { body, contentType } = this.#o.topicContent(path);
      const hash = sha256(body);
      const isReviews = path === '/reviews.json';
      const before = isReviews ? await this.#o.store.getTopicState(topic) : undefined;
      const reviewHashes = isReviews ? reviewHashesOf(body) : null;
      const outcome = await this.#o.store.publish(
        { hash, topic, contentType, body },
        reviewHashes,
        now,
      );
      reports.push({
        topic,
        changed: outcome.changed,
        queued: outcome.queued,
        reviews:
          reviewHashes && outcome.changed ? diffReviews(before?.reviewHashes, reviewHashes) : null,
      });
    }
    this.kick();
    return reports;
  }

  start(): void {
    this.#stopped = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Runs the background work soon (new intent, publish, or a finished job freed a slot). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#rerun = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), 0);
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    this.#running = true;
    this.#ticking = this.#work().catch((error: unknown) =>
      this.#o.log(`hub worker: ${(error as Error).message}`),
    );
    await this.#ticking;
    this.#running = false;
    if (this.#stopped) return;
    if (this.#rerun) {
      this.#rerun = false;
      this.kick();
      return;
    }
    const due = await this.#o.store.nextDueAt().catch(() => undefined);
    const wait = due === undefined ? POLL_MS : Math.min(POLL_MS, Math.max(0, due - this.#o.now()));
    this.#timer = setTimeout(() => void this.#tick(), wait);
  }

  async #work(): Promise<void> {
    const { store } = this.#o;
    const now = this.#o.now();
    if (now - this.#lastPurge >= PURGE_EVERY_MS) {
      this.#lastPurge = now;
      await store.purgeExpired(now);
    }
    const free = this.#o.concurrency - this.#inFlight.size;
    if (free <= 0) return;
    const claimUntil = now + this.#o.claimSeconds * 1000;
    const verifications = await store.claimVerifications(now, claimUntil, free);
    for (const verification of verifications) this.#track(this.#verify(verification));
    const deliveries = await store.claimDeliveries(now, claimUntil, free - verifications.length);
    for (const delivery of deliveries) this.#track(this.#deliver(delivery));
  }

  #track(job: Promise<void>): void {
    const tracked = job
      .catch((error: unknown) => this.#o.log(`hub job: ${(error as Error).message}`))
      .finally(() => {
        this.#inFlight.delete(tracked);
        this.kick();
      });
    this.#inFlight.add(tracked);
  }

  /** WebSub §5.3: GET the callback with the intent and a fresh challenge; only an exact echo verifies. */
  async #verify(intent: PendingVerification): Promise<void> {
    const { store, fetcher } = this.#o;
    const challenge = randomBytes(32).toString('base64url');
    const url = new URL(intent.callback);
    url.searchParams.append('hub.mode', intent.mode);
    url.searchParams.append('hub.topic', intent.topic);
    url.searchParams.append('hub.challenge', challenge);
    // WebSub §5.3: lease_seconds MUST be sent on subscribe; it is the granted (clamped) value.
    if (intent.mode === 'subscribe')
      url.searchParams.append('hub.lease_seconds', String(intent.leaseSeconds));
    let verified = false;
    let detail: string | undefined;
    try {
      const answer = await fetcher({
        method: 'GET',
        url,
        timeoutMs: this.#o.timeoutMs,
        maxBodyBytes: ANSWER_BYTES,
      });
      verified =
        answer.status >= 200 && answer.status < 300 && answer.body.equals(Buffer.from(challenge));
      if (!verified) detail = `answered ${answer.status} without echoing the challenge`;
    } catch (error) {
      detail = (error as Error).message;
    }
    this.#o.onEvent({
      kind: 'verification',
      mode: intent.mode,
      callback: intent.callback,
      topic: intent.topic,
      outcome: verified ? 'verified' : 'refused',
      ...(detail === undefined ? {} : { detail }),
    });
    const now = this.#o.now();
    if (verified && intent.mode === 'subscribe') {
      await store.saveSubscription({
        callback: intent.callback,
        topic: intent.topic,
        callbackHost: url.host,
        secret: intent.secret,
        leaseSeconds: intent.leaseSeconds,
        expiresAt: now + intent.leaseSeconds * 1000,
        failures: 0,
        verifiedAt: now,
      });
    } else if (verified) {
      await store.deleteSubscription(intent.callback, intent.topic);
      this.#o.onEvent({
        kind: 'removal',
        callback: intent.callback,
        topic: intent.topic,
        reason: 'unsubscribed',
      });
    }
    // A failed verification leaves any existing subscription as it was.
    await store.deleteVerification(intent.id);
  }

  async #deliver(delivery: Delivery): Promise<void> {
    const { store, fetcher } = this.#o;
    const subscription = await store.getSubscription(delivery.callback, delivery.topic);
    const version = await store.getVersion(delivery.versionHash);
    if (!subscription || subscription.expiresAt <= this.#o.now() || !version) {
      // Expired leases get nothing; a vanished subscription or version has nothing to send.
      await store.dropDelivery(delivery);
      this.#o.onEvent({
        kind: 'delivery',
        callback: delivery.callback,
        topic: delivery.topic,
        outcome: 'skipped',
        status: 0,
        attempt: delivery.attempts + 1,
        detail: subscription ? 'the lease has expired' : 'no longer subscribed',
      });
      return;
    }
    const path = this.#topicPaths.get(delivery.topic)!;
    const headers: Record<string, string> = {
      'Content-Type': version.contentType,
      Link: topicLinkHeader(this.#o.siteUrl, path),
    };
    // WebSub §7: the signature covers the exact body bytes.
    if (subscription.secret)
      headers['X-Hub-Signature'] =
        `sha256=${createHmac('sha256', subscription.secret).update(version.body).digest('hex')}`;
    let status = 0;
    let detail: string | undefined;
    try {
      const answer = await fetcher({
        method: 'POST',
        url: new URL(delivery.callback),
        headers,
        body: version.body,
        timeoutMs: this.#o.timeoutMs,
        maxBodyBytes: ANSWER_BYTES,
      });
      status = answer.status;
    } catch (error) {
      detail = (error as Error).message;
    }
    const event = {
      kind: 'delivery',
      callback: delivery.callback,
      topic: delivery.topic,
      status,
      attempt: delivery.attempts + 1,
      ...(detail === undefined ? {} : { detail }),
    } as const;
    if (status >= 200 && status < 300) {
      await store.completeDelivery(delivery);
      this.#o.onEvent({ ...event, outcome: 'delivered' });
    } else if (status === 410) {
      // 410 Gone: the subscriber asks to be removed at once.
      await store.deleteSubscription(delivery.callback, delivery.topic);
      this.#o.onEvent({ ...event, outcome: 'gone' });
      this.#o.onEvent({
        kind: 'removal',
        callback: delivery.callback,
        topic: delivery.topic,
        reason: 'the callback answered 410 Gone',
      });
    } else {
      this.#o.onEvent({ ...event, outcome: 'failed' });
      const delays = this.#o.retryDelaysMs;
      const delay = delays[Math.min(delivery.attempts, delays.length - 1)] ?? 0;
      const failures = await store.failDelivery(
        delivery,
        this.#o.now() + delay,
        MAX_CONSECUTIVE_FAILURES,
      );
      if (failures >= MAX_CONSECUTIVE_FAILURES) {
        const reason = `${failures} consecutive failed deliveries`;
        this.#o.onEvent({
          kind: 'removal',
          callback: delivery.callback,
          topic: delivery.topic,
          reason,
        });
        await this.#sendDenied(delivery, reason);
      }
    }
  }

  /** WebSub §5.2: best-effort notice that the subscription was removed. */
  async #sendDenied(delivery: Delivery, reason: string): Promise<void> {
    const url = new URL(delivery.callback);
    url.searchParams.append('hub.mode', 'denied');
    url.searchParams.append('hub.topic', delivery.topic);
    url.searchParams.append('hub.reason', reason);
    try {
      await this.#o.fetcher({
        method: 'GET',
        url,
        timeoutMs: this.#o.timeoutMs,
        maxBodyBytes: ANSWER_BYTES,
      });
    } catch {
      // Best effort by definition: the subscription is already gone either way.
    }
  }
}
