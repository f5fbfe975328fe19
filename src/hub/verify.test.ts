import { beforeEach, describe, expect, test } from 'vitest';
import {
  FEED,
  subscribe,
  testContext,
  type ScriptedAnswer,
  type TestHub,
} from '../../test/support/hub-unit.ts';
import type { IntentMode } from './store.ts';
import { sendDenied, verifyIntent } from './verify.ts';

const CALLBACK = 'https://sub.example/cb?subscriber=abc';
let clock: number;
let hub: TestHub;

beforeEach(() => {
  clock = 1_000_000;
  hub = testContext({ now: () => clock });
});

/** Queues an intent and verifies it, as the worker would. */
async function verify(mode: IntentMode, leaseSeconds = 7200, callback = CALLBACK): Promise<void> {
  await hub.store.addVerification({
    id: `${mode}-${clock}`,
    callback,
    topic: FEED,
    mode,
    leaseSeconds,
    secret: 'shh',
    createdAt: clock,
  });
  const [intent] = await hub.store.claimVerifications(clock, clock + 30_000, 10);
  await verifyIntent(hub.ctx, intent!);
}

describe('subscribe', () => {
  test('a subscription is counted under its host name, whatever the port of its callback', async () => {
    await verify('subscribe', 7200, 'https://sub.example:8443/cb');
    const saved = await hub.store.getSubscription('https://sub.example:8443/cb', FEED);
    expect(saved?.callbackHost).toBe('sub.example');
  });

  test('asks the callback with mode, topic, a fresh challenge and the granted lease, keeping its own query', async () => {
    await verify('subscribe');
    await verify('subscribe');
    const [first, second] = hub.fetcher.gets(CALLBACK, 'subscribe');
    expect(first!.url.searchParams.get('subscriber')).toBe('abc');
    expect(first!.url.searchParams.get('hub.topic')).toBe(FEED);
    expect(first!.url.searchParams.get('hub.lease_seconds')).toBe('7200');
    expect(first!.url.searchParams.get('hub.challenge')!.length).toBeGreaterThanOrEqual(32);
    expect(second!.url.searchParams.get('hub.challenge')).not.toBe(
      first!.url.searchParams.get('hub.challenge'),
    );
  });

  test('an exact echo saves the subscription with its secret, the lease counted from the verification', async () => {
    await verify('subscribe', 7200);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toEqual({
      callback: CALLBACK,
      topic: FEED,
      callbackHost: 'sub.example',
      secret: 'shh',
      leaseSeconds: 7200,
      expiresAt: clock + 7_200_000,
      failures: 0,
      verifiedAt: clock,
    });
    expect(await hub.store.claimVerifications(clock + 60_000, clock + 90_000, 10)).toEqual([]);
  });

  test.each<[string, ScriptedAnswer]>([
    ['a 2xx without the challenge', 200],
    ['a 404', 404],
    ['a network error', 'error'],
  ])('%s saves nothing and the intent is gone', async (_name, answer) => {
    hub.fetcher.answerVerification(CALLBACK, answer);
    await verify('subscribe');
    expect(hub.fetcher.gets(CALLBACK, 'subscribe')).toHaveLength(1);
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
    expect(await hub.store.claimVerifications(clock + 60_000, clock + 90_000, 10)).toEqual([]);
    expect(hub.events).toContainEqual(expect.objectContaining({ outcome: 'refused' }));
  });
});

describe('the per-host cap', () => {
  test('a verification that finds its host full saves nothing and tells the callback why', async () => {
    // Admitted while the host had room; two others for the host were verified since.
    hub = testContext({ now: () => clock, maxSubscriptionsPerHost: 2 });
    await subscribe(hub, 'https://sub.example/one', FEED);
    await subscribe(hub, 'https://sub.example/two', FEED);
    await verify('subscribe');
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
    const [denied] = hub.fetcher.gets(CALLBACK, 'denied');
    expect(denied!.url.searchParams.get('hub.reason')).toBe(
      'the callback host sub.example has the most subscriptions allowed',
    );
    // A subscription the host already has is renewed, cap or not.
    await subscribe(hub, CALLBACK, FEED, { leaseSeconds: 60 });
    await verify('subscribe', 7200);
    expect((await hub.store.getSubscription(CALLBACK, FEED))?.leaseSeconds).toBe(7200);
  });
});

describe('unsubscribe', () => {
  test('a verified unsubscribe removes the subscription and sends no lease', async () => {
    await subscribe(hub, CALLBACK, FEED);
    await verify('unsubscribe');
    const [asked] = hub.fetcher.gets(CALLBACK, 'unsubscribe');
    expect(asked!.url.searchParams.get('hub.lease_seconds')).toBeNull();
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toBeUndefined();
  });

  test('a verified unsubscribe of nothing reports no removal', async () => {
    await verify('unsubscribe');
    expect(hub.events.filter((event) => event.kind === 'removal')).toEqual([]);
    await subscribe(hub, CALLBACK, FEED);
    await verify('unsubscribe');
    expect(hub.events.filter((event) => event.kind === 'removal')).toHaveLength(1);
  });

  test('a failed verification leaves the existing subscription as it was', async () => {
    await subscribe(hub, CALLBACK, FEED, { leaseSeconds: 7200 });
    const before = await hub.store.getSubscription(CALLBACK, FEED);
    hub.fetcher.answerVerification(CALLBACK, 500);
    clock += 5000;
    await verify('unsubscribe');
    expect(await hub.store.getSubscription(CALLBACK, FEED)).toEqual(before);
  });
});

describe('denial', () => {
  test('tells the callback the mode, topic and reason', async () => {
    await sendDenied(hub.ctx, CALLBACK, FEED, 'no more');
    const [denied] = hub.fetcher.gets(CALLBACK, 'denied');
    expect(denied!.url.searchParams.get('hub.topic')).toBe(FEED);
    expect(denied!.url.searchParams.get('hub.reason')).toBe('no more');
    expect(denied!.url.searchParams.get('subscriber')).toBe('abc');
  });

  test('is best effort: a callback that cannot be reached does not fail the caller', async () => {
    const failing = testContext({
      now: () => clock,
      fetcher: () => Promise.reject(new Error('down')),
    });
    await expect(sendDenied(failing.ctx, CALLBACK, FEED, 'no more')).resolves.toBeUndefined();
  });
});
