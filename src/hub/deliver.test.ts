import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, test } from 'vitest';
import { topicLinkHeader } from '../core/site.ts';
import { FEED, SITE, subscribe, testContext, type TestHub } from '../../test/support/hub-unit.ts';
import { MAX_CONSECUTIVE_FAILURES, deliver, retryDelay } from './deliver.ts';
import { publishTopics } from './publish.ts';

const CALLBACK = 'https://sub.example/cb';
let clock: number;
let hub: TestHub;

beforeEach(() => {
  clock = 1_000_000;
  hub = testContext({ now: () => clock, retryDelaysMs: [300, 600] });
});

/** Claims what is due now and makes one attempt at each, as the worker would. */
async function attemptDue(): Promise<number> {
  const claimed = await hub.store.claimDeliveries(clock, clock + 30_000, 10);
  for (const delivery of claimed) await deliver(hub.ctx, delivery);
  return claimed.length;
}

async function subscribedAndPublished(extra = {}) {
  await subscribe(hub, CALLBACK, FEED, extra);
  await publishTopics(hub.ctx, [FEED]);
}

describe('a 2xx', () => {
  test('delivers the topic bytes with their Content-Type and the Link header, and completes the delivery', async () => {
    await subscribedAndPublished();
    expect(await attemptDue()).toBe(1);
    const [post] = hub.fetcher.posts(CALLBACK);
    expect(post!.body!.toString()).toBe('/feed.xml revision 1');
    expect(post!.headers['Content-Type']).toBe('application/atom+xml');
    expect(post!.headers.Link).toBe(topicLinkHeader(SITE, '/feed.xml'));
    expect(post!.headers['X-Hub-Signature']).toBeUndefined();
    expect(await hub.store.nextDueAt()).toBeUndefined();
    expect(hub.events).toContainEqual(expect.objectContaining({ outcome: 'delivered' }));
  });

  test('with a secret, signs the exact body with HMAC-SHA256', async () => {
    await subscribedAndPublished({ secret: 's3cret' });
    await attemptDue();
    const [post] = hub.fetcher.posts(CALLBACK);
    const expected = createHmac('sha256', 's3cret').update(post!.body!).digest('hex');
    expect(post!.headers['X-Hub-Signature']).toBe(`sha256=${expected}`);
  });
});

describe('failures', () => {
  test(`${MAX_CONSECUTIVE_FAILURES} consecutive failures remove the subscription and send hub.mode=denied with the reason`, async () => {
    hub.fetcher.answerPosts(CALLBACK, 500, 'error', 503);
    await subscribedAndPublished();
    for (const [failures, wait] of [
      [1, 300],
      [2, 600],
    ] as const) {
      expect(await attemptDue()).toBe(1);
      expect((await hub.store.getSubscription(CALLBACK, FEED))?.failures).toBe(failures);
      expect(hub.fetcher.gets(CALLBACK, 'denied')).toHaveLength(0);
      clock += wait;
    }
    expect(await attemptDue()).toBe(1);
    expect(hub.fetcher.posts(CALLBACK)).toHaveLength(3);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
    expect(await hub.store.nextDueAt()).toBeUndefined();
    const [denied, ...more] = hub.fetcher.gets(CALLBACK, 'denied');
    expect(more).toHaveLength(0);
    expect(denied!.url.searchParams.get('hub.topic')).toBe(FEED);
    expect(denied!.url.searchParams.get('hub.reason')).toBe('3 consecutive failed deliveries');
    expect(hub.events).toContainEqual({
      kind: 'removal',
      callback: CALLBACK,
      topic: FEED,
      reason: '3 consecutive failed deliveries',
    });
  });

  test('a 2xx between failures resets the count, so failures must be consecutive to remove', async () => {
    hub.fetcher.answerPosts(CALLBACK, 500, 500, 200, 500, 500, 200);
    await subscribedAndPublished();
    await attemptDue();
    clock += 300;
    await attemptDue();
    clock += 600;
    await attemptDue();
    expect((await hub.store.getSubscription(CALLBACK, FEED))?.failures).toBe(0);
    hub.revise();
    await publishTopics(hub.ctx, [FEED]);
    await attemptDue();
    clock += 300;
    await attemptDue();
    expect((await hub.store.getSubscription(CALLBACK, FEED))?.failures).toBe(2);
    expect(hub.fetcher.posts(CALLBACK)).toHaveLength(5);
    expect(hub.fetcher.gets(CALLBACK, 'denied')).toHaveLength(0);
  });

  test('a failed attempt is retried after the next configured delay, not before', async () => {
    hub.fetcher.answerPosts(CALLBACK, 500);
    await subscribedAndPublished();
    await attemptDue();
    expect(await hub.store.nextDueAt()).toBe(clock + 300);
    clock += 299;
    expect(await attemptDue()).toBe(0);
    clock += 1;
    expect(await attemptDue()).toBe(1);
    expect(await hub.store.nextDueAt()).toBe(clock + 600);
  });

  test('retry delays follow the configured list, the last one repeating', () => {
    expect([0, 1, 2, 5].map((attempts) => retryDelay([300, 600], attempts))).toEqual([
      300, 600, 600, 600,
    ]);
    expect(retryDelay([], 0)).toBe(0);
  });
});

test('410 Gone removes the subscription at once: no retry and no denial notice', async () => {
  hub.fetcher.answerPosts(CALLBACK, 410);
  await subscribedAndPublished();
  await attemptDue();
  expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
  expect(await hub.store.nextDueAt()).toBeUndefined();
  clock += 60_000;
  expect(await attemptDue()).toBe(0);
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(1);
  expect(hub.fetcher.gets(CALLBACK, 'denied')).toHaveLength(0);
  expect(hub.events).toContainEqual(
    expect.objectContaining({ kind: 'removal', callback: CALLBACK }),
  );
});

test('a lease that ran out between publish and attempt gets no POST, and the delivery is dropped', async () => {
  await subscribedAndPublished({ leaseSeconds: 1 });
  clock += 1000;
  expect(await attemptDue()).toBe(1);
  expect(hub.fetcher.requests).toHaveLength(0);
  expect(await hub.store.nextDueAt()).toBeUndefined();
  expect(hub.events).toContainEqual(
    expect.objectContaining({ outcome: 'skipped', detail: 'the lease has expired' }),
  );
});
