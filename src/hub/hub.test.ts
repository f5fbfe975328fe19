import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { FEED, testContext, type TestHub } from '../../test/support/hub-unit.ts';
import { createHub, type Hub } from './hub.ts';

const CALLBACK = 'https://sub.example/cb';
let t: TestHub;
let hub: Hub;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  t = testContext();
  hub = createHub({ ...t.ctx });
  hub.start();
});
afterEach(async () => {
  await hub.stop();
  vi.useRealTimers();
});

test('a subscribe is verified in the background, and a publish then delivers the topic', async () => {
  const form = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.callback': CALLBACK,
    'hub.topic': FEED,
  });
  // The worker is idle, sleeping until its next poll: the request itself must wake it.
  await vi.advanceTimersByTimeAsync(10);
  expect((await hub.handle(form, '203.0.113.1')).status).toBe(202);
  await vi.advanceTimersByTimeAsync(10);
  expect(t.fetcher.gets(CALLBACK, 'subscribe')).toHaveLength(1);
  expect(await t.store.getSubscription(CALLBACK, FEED)).toBeDefined();
  expect(await hub.publish([FEED])).toMatchObject([{ topic: FEED, changed: true, queued: 1 }]);
  await vi.advanceTimersByTimeAsync(10);
  expect(t.fetcher.posts(CALLBACK)).toHaveLength(1);
});

test('nothing is verified or delivered before start or after stop', async () => {
  await hub.stop();
  const form = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.callback': CALLBACK,
    'hub.topic': FEED,
  });
  expect((await hub.handle(form, '203.0.113.1')).status).toBe(202);
  await vi.advanceTimersByTimeAsync(5000);
  expect(t.fetcher.requests).toHaveLength(0);
});
