// Pieces for the hub's unit tests: an in-memory store, a fake fetcher that records every request
// and answers from a script, and a hub context over them with a clock the test controls.
import type { TopicPath } from '../../src/core/site.ts';
import { createContext, type HubContext, type HubEvent } from '../../src/hub/context.ts';
import type { HubOptions } from '../../src/hub/hub.ts';
import type { OutboundRequest, OutboundResponse } from '../../src/hub/http-client.ts';
import { SqliteHubStore } from '../../src/hub/sqlite-store.ts';
import type { Subscription } from '../../src/hub/store.ts';

export const SITE = 'https://reviews.example.com';
export const FEED = `${SITE}/feed.xml`;
export const JSON_FEED = `${SITE}/api/feed.json`;
export const REVIEWS = `${SITE}/reviews.json`;
export const ALL_TOPICS = [FEED, JSON_FEED, REVIEWS];

/** How the fake callback answers one request: a status, an error, or either after a delay. */
export type ScriptedAnswer = number | 'error' | { status: number; delayMs: number };

export interface RecordedRequest {
  method: 'GET' | 'POST';
  url: URL;
  /** The callback without the hub's query parameters. */
  callback: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  at: number;
}

const HUB_PARAMS = ['hub.mode', 'hub.topic', 'hub.challenge', 'hub.lease_seconds', 'hub.reason'];

function callbackOf(url: URL): string {
  const bare = new URL(url);
  for (const name of HUB_PARAMS) bare.searchParams.delete(name);
  return bare.href;
}

/**
 * Records every request. Verification GETs echo the challenge and denial GETs get 200 unless
 * scripted; POSTs answer from the callback's script, one entry per POST, the last repeating.
 */
export class FakeFetcher {
  readonly requests: RecordedRequest[] = [];
  readonly #posts = new Map<string, ScriptedAnswer[]>();
  readonly #verifications = new Map<string, ScriptedAnswer>();
  readonly #open = new Map<string, number>();
  /** The most POSTs that were open at once to each callback. */
  readonly maxOpenPosts = new Map<string, number>();
  #openTotal = 0;
  /** The most POSTs that were open at once, all callbacks together. */
  maxOpenTotal = 0;

  readonly #clock: () => number;

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  answerPosts(callback: string, ...answers: ScriptedAnswer[]): this {
    this.#posts.set(callback, answers);
    return this;
  }

  answerVerification(callback: string, answer: ScriptedAnswer): this {
    this.#verifications.set(callback, answer);
    return this;
  }

  posts(callback?: string): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'POST' && (callback === undefined || r.callback === callback),
    );
  }

  gets(callback: string, mode?: string): RecordedRequest[] {
    return this.requests.filter(
      (r) =>
        r.method === 'GET' &&
        r.callback === callback &&
        (mode === undefined || r.url.searchParams.get('hub.mode') === mode),
    );
  }

  readonly fetch = async (request: OutboundRequest): Promise<OutboundResponse> => {
    const callback = callbackOf(request.url);
    this.requests.push({
      method: request.method,
      url: request.url,
      callback,
      headers: request.headers ?? {},
      body: request.body,
      at: this.#clock(),
    });
    if (request.method === 'GET') return this.#answerGet(request.url, callback);
    return this.#answerPost(callback);
  };

  async #answerGet(url: URL, callback: string): Promise<OutboundResponse> {
    const challenge = url.searchParams.get('hub.challenge');
    const scripted = this.#verifications.get(callback);
    if (challenge === null || scripted === undefined)
      return { status: 200, body: Buffer.from(challenge ?? '') };
    return answer(scripted, Buffer.from('not the challenge'));
  }

  async #answerPost(callback: string): Promise<OutboundResponse> {
    const script = this.#posts.get(callback) ?? [200];
    const index = Math.min(this.posts(callback).length - 1, script.length - 1);
    this.#opened(callback, 1);
    try {
      return await answer(script[index]!, Buffer.alloc(0));
    } finally {
      this.#opened(callback, -1);
    }
  }

  #opened(callback: string, change: number): void {
    const open = (this.#open.get(callback) ?? 0) + change;
    this.#open.set(callback, open);
    this.maxOpenPosts.set(callback, Math.max(open, this.maxOpenPosts.get(callback) ?? 0));
    this.#openTotal += change;
    this.maxOpenTotal = Math.max(this.maxOpenTotal, this.#openTotal);
  }
}

async function answer(scripted: ScriptedAnswer, body: Buffer): Promise<OutboundResponse> {
  if (scripted === 'error') throw new Error('connection refused');
  if (typeof scripted === 'number') return { status: scripted, body };
  await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
  return { status: scripted.status, body };
}

/** Distinct bytes per topic and revision; the reviews dataset is JSON the hub can diff. */
export function topicBytes(path: TopicPath, revision: number): Buffer {
  if (path === '/reviews.json')
    return Buffer.from(JSON.stringify({ reviews: [{ id: 'r1', text: `revision ${revision}` }] }));
  return Buffer.from(`${path} revision ${revision}`);
}

export interface TestHub {
  ctx: HubContext;
  store: SqliteHubStore;
  fetcher: FakeFetcher;
  events: HubEvent[];
  /** Bumps the revision of every topic, so the next publish sees changed bytes. */
  revise(): void;
}

/** A hub context over an in-memory store; `now` reads Date.now(), which fake timers control. */
export function testContext(overrides: Partial<HubOptions> = {}): TestHub {
  const now = overrides.now ?? (() => Date.now());
  const store = new SqliteHubStore(':memory:');
  const fetcher = new FakeFetcher(now);
  const events: HubEvent[] = [];
  let revision = 1;
  const options: HubOptions = {
    store,
    fetcher: fetcher.fetch,
    resolveCallback: async () => undefined,
    siteUrl: SITE,
    topicContent: (path) => ({
      body: topicBytes(path, revision),
      contentType: path.endsWith('.xml') ? 'application/atom+xml' : 'application/json',
    }),
    lease: { defaultSeconds: 3600, minSeconds: 1, maxSeconds: 864_000 },
    retryDelaysMs: [300, 600],
    maxSubscriptionsPerHost: 100,
    rateLimitPerMinute: 1000,
    allowPrivateCallbacks: false,
    claimSeconds: 30,
    timeoutMs: 5000,
    onEvent: (event) => events.push(event),
    ...overrides,
    now,
  };
  return { ctx: createContext(options), store, fetcher, events, revise: () => (revision += 1) };
}

/** Saves a verified subscription directly, as a completed verification would. */
export async function subscribe(
  hub: TestHub,
  callback: string,
  topic: string,
  extra: Partial<Subscription> = {},
): Promise<void> {
  const now = hub.ctx.now();
  const leaseSeconds = extra.leaseSeconds ?? 3600;
  await hub.store.saveSubscription({
    callback,
    topic,
    callbackHost: new URL(callback).hostname,
    secret: null,
    leaseSeconds,
    expiresAt: now + leaseSeconds * 1000,
    failures: 0,
    verifiedAt: now,
    ...extra,
  });
}
