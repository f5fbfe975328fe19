// The HubStore contract, run against each store: sqlite (unit) and PostgreSQL (integration-pg).
import { expect, test } from 'vitest';
import type { HubStore, Subscription } from '../../src/hub/store.ts';

const topic = 'https://reviews.example.com/feed.xml';
const other = 'https://reviews.example.com/reviews.json';

function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    callback: 'https://sub.example/a',
    topic,
    callbackHost: 'sub.example',
    secret: null,
    leaseSeconds: 3600,
    expiresAt: 10_000_000,
    failures: 0,
    verifiedAt: 0,
    ...overrides,
  };
}

const version = (hash: string, t = topic) => ({
  hash,
  topic: t,
  contentType: 'application/atom+xml',
  body: Buffer.from(hash),
});

export function testHubStoreContract(makeStore: () => Promise<HubStore>): void {
  test('publish queues only on change, once per active subscriber', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.saveSubscription(makeSubscription({ callback: 'https://sub.example/b' }));
    await store.saveSubscription(
      makeSubscription({ callback: 'https://sub.example/expired', expiresAt: 5 }),
    );
    expect(await store.publish(version('v1'), null, 10)).toEqual({ changed: true, queued: 2 });
    expect(await store.publish(version('v1'), null, 11)).toEqual({ changed: false, queued: 0 });
  });

  test('a newer version replaces a pending retry of an older one', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.publish(version('v1'), null, 0);
    const [first] = await store.claimDeliveries(0, 100, 10);
    expect(await store.failDelivery(first!, 1000, 3)).toBe(1);
    await store.publish(version('v2'), null, 10);
    const [next] = await store.claimDeliveries(10, 100, 10);
    expect(next).toMatchObject({ versionHash: 'v2', attempts: 0 });
    expect(await store.getVersion('v1')).toBeUndefined();
  });

  test('one callback is never claimed twice at once, across topics', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.saveSubscription(makeSubscription({ topic: other }));
    await store.publish(version('f1'), null, 0);
    await store.publish(version('r1', other), null, 0);
    const claimed = await store.claimDeliveries(0, 100, 10);
    expect(claimed).toHaveLength(1);
    expect(await store.claimDeliveries(1, 100, 10)).toHaveLength(0);
    await store.completeDelivery(claimed[0]!);
    expect(await store.claimDeliveries(2, 100, 10)).toHaveLength(1);
  });

  test('a version published while the older one is in flight waits for that POST, then goes', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.publish(version('v1'), null, 0);
    const [inFlight] = await store.claimDeliveries(0, 100, 10);
    await store.publish(version('v2'), null, 1);
    expect(await store.claimDeliveries(2, 100, 10)).toHaveLength(0);
    await store.completeDelivery(inFlight!);
    expect(await store.claimDeliveries(3, 100, 10)).toEqual([
      expect.objectContaining({ versionHash: 'v2' }),
    ]);
  });

  test('a 2xx resets failures; the third consecutive failure removes the subscription', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.publish(version('v1'), null, 0);
    let [delivery] = await store.claimDeliveries(0, 100, 10);
    expect(await store.failDelivery(delivery!, 0, 3)).toBe(1);
    [delivery] = await store.claimDeliveries(0, 100, 10);
    expect(await store.failDelivery(delivery!, 0, 3)).toBe(2);
    [delivery] = await store.claimDeliveries(0, 100, 10);
    await store.completeDelivery(delivery!);
    expect((await store.getSubscription('https://sub.example/a', topic))?.failures).toBe(0);
    await store.publish(version('v2'), null, 1);
    for (const expected of [1, 2, 3]) {
      [delivery] = await store.claimDeliveries(1, 100, 10);
      expect(await store.failDelivery(delivery!, 1, 3)).toBe(expected);
    }
    expect(await store.getSubscription('https://sub.example/a', topic)).toBeUndefined();
    expect(await store.nextDueAt()).toBeUndefined();
  });

  test('a failed attempt for a subscription removed while it was in flight counts nothing', async () => {
    const store = await makeStore();
    await store.saveSubscription(makeSubscription());
    await store.publish(version('v1'), null, 0);
    const [delivery] = await store.claimDeliveries(0, 100, 10);
    expect(await store.deleteSubscription('https://sub.example/a', topic)).toBe(true);
    expect(await store.deleteSubscription('https://sub.example/a', topic)).toBe(false);
    // Not "3 consecutive failures": the subscriber unsubscribed, it did not fail.
    expect(await store.failDelivery(delivery!, 0, 3)).toBe(0);
    expect(await store.claimDeliveries(1, 100, 10)).toEqual([]);
    expect(await store.nextDueAt()).toBeUndefined();
  });

  test('a capped save adds no new subscription past the cap, and renews one that exists', async () => {
    const store = await makeStore();
    const at = (callback: string) =>
      makeSubscription({ callback: `https://sub.example/${callback}` });
    expect(await store.saveSubscriptionWithinCap(at('a'), 2, 0)).toBe(true);
    expect(await store.saveSubscriptionWithinCap(at('b'), 2, 0)).toBe(true);
    expect(await store.saveSubscriptionWithinCap(at('c'), 2, 0)).toBe(false);
    expect(await store.getSubscription('https://sub.example/c', topic)).toBeUndefined();
    expect(await store.saveSubscriptionWithinCap({ ...at('a'), leaseSeconds: 60 }, 2, 0)).toBe(
      true,
    );
    expect((await store.getSubscription('https://sub.example/a', topic))?.leaseSeconds).toBe(60);
    // Saves at the same moment still stop at the cap.
    const results = await Promise.all(
      ['d', 'e', 'f'].map((c) =>
        store.saveSubscriptionWithinCap(
          makeSubscription({
            callback: `https://other.example/${c}`,
            callbackHost: 'other.example',
          }),
          2,
          0,
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await store.countActiveSubscriptionsForHost('other.example', 0)).toBe(2);
  });

  test('verifications of one callback and topic are handed out oldest first, one at a time', async () => {
    const store = await makeStore();
    const intent = {
      callback: 'https://sub.example/a',
      topic,
      leaseSeconds: 3600,
      secret: null,
      createdAt: 0,
    };
    await store.addVerification({ ...intent, id: 'first', mode: 'subscribe' });
    await store.addVerification({ ...intent, id: 'second', mode: 'unsubscribe' });
    expect((await store.claimVerifications(0, 100, 10)).map((v) => v.id)).toEqual(['first']);
    await store.deleteVerification('first');
    expect((await store.claimVerifications(0, 100, 10)).map((v) => v.id)).toEqual(['second']);
  });
}
