import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ALL_TOPICS,
  FEED,
  subscribe,
  testContext,
  type TestHub,
} from '../../test/support/hub-unit.ts';
import { createWorker, PURGE_EVERY_MS, verificationSlots, type Worker } from './worker.ts';
import { publishTopics } from './publish.ts';

const CALLBACK = 'https://sub.example/cb';
const START = 1_000_000;
let hub: TestHub;
let worker: Worker | undefined;

beforeEach(() => {
  vi.useFakeTimers({ now: START });
  hub = testContext({ retryDelaysMs: [300, 600] });
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  vi.useRealTimers();
});

function startWorker(overrides: Partial<TestHub['ctx']> = {}): Worker {
  worker = createWorker({ ...hub.ctx, ...overrides });
  worker.start();
  return worker;
}

async function publish(...topics: string[]): Promise<void> {
  await publishTopics(hub.ctx, topics);
  worker?.kick();
}

const postTimes = (callback = CALLBACK) =>
  hub.fetcher.posts(callback).map((post) => post.at - START);

test('retries are spaced by retryDelaysMs, one delay per attempt', async () => {
  hub.fetcher.answerPosts(CALLBACK, 503);
  await subscribe(hub, CALLBACK, FEED);
  startWorker();
  await publish(FEED);
  await vi.advanceTimersByTimeAsync(299);
  expect(postTimes()).toEqual([0]);
  await vi.advanceTimersByTimeAsync(1);
  expect(postTimes()).toEqual([0, 300]);
  await vi.advanceTimersByTimeAsync(599);
  expect(postTimes()).toEqual([0, 300]);
  await vi.advanceTimersByTimeAsync(1);
  expect(postTimes()).toEqual([0, 300, 900]);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(postTimes()).toHaveLength(3);
  expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
});

test('while a slow delivery holds its callback, the worker does not poll the store in a loop', async () => {
  hub.fetcher.answerPosts(CALLBACK, { status: 200, delayMs: 2000 });
  for (const topic of ALL_TOPICS) await subscribe(hub, CALLBACK, topic);
  const nextDueAt = vi.spyOn(hub.store, 'nextDueAt');
  startWorker();
  await publish(...ALL_TOPICS);
  await vi.advanceTimersByTimeAsync(1500);
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(1);
  // One look per poll interval at most (it looped thousands of times before).
  expect(nextDueAt.mock.calls.length).toBeLessThanOrEqual(4);
  await vi.advanceTimersByTimeAsync(5000);
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(3);
});

describe('serialisation', () => {
  test('two deliveries to one callback never overlap: the next POST starts when the last one ends', async () => {
    hub.fetcher.answerPosts(CALLBACK, { status: 200, delayMs: 150 });
    for (const topic of ALL_TOPICS) await subscribe(hub, CALLBACK, topic);
    startWorker();
    await publish(...ALL_TOPICS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(hub.fetcher.posts(CALLBACK)).toHaveLength(3);
    expect(hub.fetcher.maxOpenPosts.get(CALLBACK)).toBe(1);
    const [first, second, third] = postTimes();
    expect(second! - first!).toBeGreaterThanOrEqual(150);
    expect(third! - second!).toBeGreaterThanOrEqual(150);
  });

  test('deliveries to different callbacks run side by side, up to the concurrency', async () => {
    const callbacks = [1, 2, 3, 4].map((n) => `https://sub.example/cb${n}`);
    for (const callback of callbacks) {
      hub.fetcher.answerPosts(callback, { status: 200, delayMs: 150 });
      await subscribe(hub, callback, FEED);
    }
    startWorker({ concurrency: 3 });
    await publish(FEED);
    await vi.advanceTimersByTimeAsync(149);
    expect(hub.fetcher.posts()).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(hub.fetcher.posts()).toHaveLength(4);
    expect(hub.fetcher.maxOpenTotal).toBe(3);
  });
});

test('verifications that hang take at most half the slots: deliveries to subscribers go on meanwhile', async () => {
  expect([1, 2, 3, 4, 16].map(verificationSlots)).toEqual([1, 1, 1, 2, 8]);
  // Eight subscribe intents whose callbacks answer only at the 10 s deadline.
  const hanging = Array.from({ length: 8 }, (_, n) => `https://slow.example/cb${n}`);
  for (const [n, callback] of hanging.entries()) {
    hub.fetcher.answerVerification(callback, { status: 200, delayMs: 10_000 });
    await hub.store.addVerification({
      id: `v${n}`,
      callback,
      topic: FEED,
      mode: 'subscribe',
      leaseSeconds: 3600,
      secret: null,
      createdAt: START,
    });
  }
  await subscribe(hub, CALLBACK, FEED);
  startWorker({ concurrency: 4 });
  await vi.advanceTimersByTimeAsync(10);
  const verifying = () => hub.fetcher.requests.filter((r) => r.method === 'GET').length;
  expect(verifying()).toBe(2);
  await publish(FEED);
  await vi.advanceTimersByTimeAsync(10);
  expect(postTimes()).toHaveLength(1);
  // The rest are verified two at a time, as slots free up.
  await vi.advanceTimersByTimeAsync(10_000);
  expect(verifying()).toBe(4);
  await vi.advanceTimersByTimeAsync(30_000);
  expect(verifying()).toBe(8);
});

test('a delivery claimed by a worker that died is claimed again once claimSeconds have passed', async () => {
  hub = testContext({ claimSeconds: 5 });
  await subscribe(hub, CALLBACK, FEED);
  await publishTopics(hub.ctx, [FEED]);
  const claimSeconds = hub.ctx.claimSeconds;
  // Another worker claims the delivery and dies before it POSTs or releases the claim.
  expect(await hub.store.claimDeliveries(START, START + claimSeconds * 1000, 10)).toHaveLength(1);
  startWorker();
  await vi.advanceTimersByTimeAsync(claimSeconds * 1000 - 1);
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(0);
  await vi.advanceTimersByTimeAsync(1000);
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(1);
  expect(await hub.store.nextDueAt()).toBeUndefined();
});

describe('leases', () => {
  test('an expired subscription gets no delivery; a live one does', async () => {
    const CONTROL = 'https://sub.example/control';
    await subscribe(hub, CALLBACK, FEED, { leaseSeconds: 1 });
    await subscribe(hub, CONTROL, FEED, { leaseSeconds: 3600 });
    startWorker();
    await vi.advanceTimersByTimeAsync(1000);
    await publish(FEED);
    await vi.advanceTimersByTimeAsync(1000);
    expect(hub.fetcher.posts(CONTROL)).toHaveLength(1);
    expect(hub.fetcher.posts(CALLBACK)).toHaveLength(0);
  });

  test(`expired subscriptions are purged every ${PURGE_EVERY_MS} ms`, async () => {
    await subscribe(hub, CALLBACK, FEED, { leaseSeconds: 1 });
    startWorker();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeDefined();
    await vi.advanceTimersByTimeAsync(PURGE_EVERY_MS - 1000 - 1);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeDefined();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
  });
});

test('stop waits for the running jobs and starts no new ones', async () => {
  hub.fetcher.answerPosts(CALLBACK, { status: 200, delayMs: 150 });
  for (const topic of ALL_TOPICS) await subscribe(hub, CALLBACK, topic);
  const running = startWorker();
  await publish(...ALL_TOPICS);
  await vi.advanceTimersByTimeAsync(10);
  const stopped = running.stop();
  await vi.advanceTimersByTimeAsync(1000);
  await stopped;
  expect(hub.fetcher.posts(CALLBACK)).toHaveLength(1);
  expect(hub.events).toContainEqual(expect.objectContaining({ outcome: 'delivered' }));
});
