import { beforeEach, describe, expect, test, vi } from 'vitest';
import {
  FEED,
  REVIEWS,
  subscribe,
  testContext,
  type TestHub,
} from '../../test/support/hub-unit.ts';
import { CallbackLookupUnavailable, type HubOptions } from './context.ts';
import {
  CALLBACK_RATE_LIMIT_PER_MINUTE,
  LOOKUP_RETRY_SECONDS,
  createAdmission,
  handleHubRequest,
  type Admission,
} from './admission.ts';
import { publishTopics } from './publish.ts';

const CALLBACK = 'https://sub.example/cb';
let clock: number;
let hub: TestHub;
let admission: Admission;
let kicks: number;

function setUp(overrides: Partial<HubOptions> = {}): void {
  hub = testContext({ now: () => clock, ...overrides });
  kicks = 0;
  admission = createAdmission(hub.ctx, {
    publish: (topics) => publishTopics(hub.ctx, topics),
    kick: () => (kicks += 1),
  });
}

beforeEach(() => {
  clock = 1_000_000;
  setUp();
});

const request = (fields: Record<string, string>, ip = '203.0.113.1') =>
  handleHubRequest(hub.ctx, admission, new URLSearchParams(fields), ip);

const subscribeForm = (callback = CALLBACK, topic = FEED) => ({
  'hub.mode': 'subscribe',
  'hub.callback': callback,
  'hub.topic': topic,
});

const pending = () => hub.store.claimVerifications(clock, clock + 1, 100);

describe('intents', () => {
  test('an accepted subscribe is 202, queues one verification and wakes the worker', async () => {
    const answer = await request({ ...subscribeForm(), 'hub.lease_seconds': '7200' });
    expect(answer.status).toBe(202);
    expect(await pending()).toMatchObject([
      { callback: CALLBACK, topic: FEED, mode: 'subscribe', leaseSeconds: 7200 },
    ]);
    expect(kicks).toBe(1);
  });

  test('the injected callback check decides: a refusal is 400 with its reason and queues nothing', async () => {
    const resolveCallback = vi.fn(async () => 'the callback host resolves to 10.0.0.1');
    setUp({ resolveCallback, allowPrivateCallbacks: true });
    const answer = await request(subscribeForm());
    expect(answer).toEqual({ status: 400, body: 'the callback host resolves to 10.0.0.1' });
    expect(resolveCallback).toHaveBeenCalledWith(new URL(CALLBACK), true);
    expect(await pending()).toEqual([]);
    expect(kicks).toBe(0);
  });

  test('a callback host the resolver could not look up for now is 503 with Retry-After, not 400', async () => {
    const resolveCallback = vi.fn(async () => {
      throw new CallbackLookupUnavailable('sub.example', 'EAI_AGAIN');
    });
    setUp({ resolveCallback });
    const answer = await request(subscribeForm());
    expect(answer).toEqual({
      status: 503,
      body: `the callback host sub.example could not be looked up just now (EAI_AGAIN); retry after ${LOOKUP_RETRY_SECONDS} s`,
      headers: { 'Retry-After': String(LOOKUP_RETRY_SECONDS) },
    });
    expect(await pending()).toEqual([]);
  });

  test('a malformed request is 400 with the reason and never reaches the callback check', async () => {
    const resolveCallback = vi.fn(async () => undefined);
    setUp({ resolveCallback });
    const answer = await request({ 'hub.mode': 'subscribe', 'hub.topic': FEED });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('hub.callback');
    expect(resolveCallback).not.toHaveBeenCalled();
  });

  test('a new subscription from a host at its cap is 403; renewing an existing one is not', async () => {
    setUp({ maxSubscriptionsPerHost: 1 });
    await subscribe(hub, CALLBACK, FEED);
    const other = await request(subscribeForm('https://sub.example/other'));
    expect(other.status).toBe(403);
    expect(other.body).toContain('sub.example has 1 subscriptions');
    expect((await request(subscribeForm())).status).toBe(202);
    expect((await request({ ...subscribeForm(), 'hub.mode': 'unsubscribe' })).status).toBe(202);
  });

  test('the cap counts a host by its name: another port of it is the same host', async () => {
    setUp({ maxSubscriptionsPerHost: 1 });
    await subscribe(hub, 'https://sub.example:8443/cb', FEED);
    const other = await request(subscribeForm('https://sub.example/other'));
    expect(other).toMatchObject({
      status: 403,
      body: expect.stringContaining('sub.example has 1'),
    });
    expect((await request(subscribeForm('https://sub.example:9443/other'))).status).toBe(403);
    expect((await request(subscribeForm('https://elsewhere.example:8443/cb'))).status).toBe(202);
  });
});

describe('rate limits', () => {
  test('past the limit per address, 429 with Retry-After; other addresses are unaffected', async () => {
    setUp({ rateLimitPerMinute: 2 });
    await request(subscribeForm());
    await request(subscribeForm());
    const refused = await request(subscribeForm());
    expect(refused.status).toBe(429);
    expect(refused.headers).toEqual({ 'Retry-After': '60' });
    expect((await request(subscribeForm(), '203.0.113.2')).status).toBe(202);
  });

  test(`more than ${CALLBACK_RATE_LIMIT_PER_MINUTE} requests a minute for one callback is 429, from any address`, async () => {
    for (let n = 0; n < CALLBACK_RATE_LIMIT_PER_MINUTE; n += 1)
      expect((await request(subscribeForm(), `203.0.113.${n}`)).status).toBe(202);
    const refused = await request(subscribeForm(), '198.51.100.1');
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('too many requests for this callback');
    expect((await request(subscribeForm('https://sub.example/other'))).status).toBe(202);
  });
});

test('a publish answers 202 with one report line per topic', async () => {
  await subscribe(hub, CALLBACK, FEED);
  const answer = await request({ 'hub.mode': 'publish', 'hub.topic': FEED, 'hub.url': REVIEWS });
  expect(answer).toEqual({
    status: 202,
    body: `${REVIEWS}: changed (first distribution: 1 reviews), notifying 0 subscribers\n${FEED}: changed, notifying 1 subscriber\n`,
  });
});
