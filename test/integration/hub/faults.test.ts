// Verification and delivery faults, durability across SIGKILL, leases, change detection and
// per-callback serialization, against the real server process.
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest';
import { FIXTURE_SITE_URL } from '../../support/build-site.ts';
import { newDataDir, startHubProcess, type HubProcess } from '../../support/hub-process.ts';
import { TestSubscriber, type CallbackBehaviour } from '../../support/subscriber.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

const tls = ensureTestCertificates();
const feed = `${FIXTURE_SITE_URL}/feed.xml`;
const reviews = `${FIXTURE_SITE_URL}/reviews.json`;
let subscriber: TestSubscriber;
let untrusted: TestSubscriber;
const running: HubProcess[] = [];
let counter = 0;

beforeAll(async () => {
  subscriber = await new TestSubscriber(tls.trusted).start();
  untrusted = await new TestSubscriber(tls.untrusted).start();
});
afterAll(async () => {
  await subscriber.close();
  await untrusted.close();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((hub) => hub.stop()));
});

async function startHub(
  options: { env?: Record<string, string>; dataDir?: string; dist?: string } = {},
): Promise<HubProcess> {
  const hub = await startHubProcess({
    distDir: options.dist ?? inject('fixtureDist'),
    caFile: tls.caFile,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    env: options.env ?? {},
  });
  running.push(hub);
  return hub;
}

function callback(behaviour: CallbackBehaviour = {}, server = subscriber) {
  counter += 1;
  const name = `/fault-${counter}`;
  return { name, url: server.callback(name, behaviour) };
}

async function subscribed(
  hub: HubProcess,
  cb: { name: string; url: string },
  topic = feed,
  extra: Record<string, string> = {},
) {
  const query = 'SELECT * FROM subscriptions WHERE callback = ? AND topic = ?';
  const before = (await hub.rows(query, cb.url, topic)).length;
  expect(
    (
      await hub.subscribe({
        'hub.callback': cb.url,
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        ...extra,
      })
    ).status,
  ).toBe(202);
  if (before === 0)
    await expect.poll(async () => (await hub.rows(query, cb.url, topic)).length).toBe(1);
}

const publish = (hub: HubProcess, ...topics: string[]) =>
  hub.post(
    new URLSearchParams([
      ['hub.mode', 'publish'],
      ...topics.map((t) => ['hub.topic', t]),
    ]).toString(),
  );

describe('verification faults leave no subscription', () => {
  test.each<[string, CallbackBehaviour]>([
    ['a wrong body', { verify: 'wrong-body' }],
    ['404', { verify: 404 }],
    ['500', { verify: 500 }],
    ['a redirect', { verify: 'redirect' }],
    ['a hang past the timeout', { verify: 'hang' }],
  ])('%s', async (_name, behaviour) => {
    const hub = await startHub({ env: { WEBSUB_TIMEOUT_MS: '500' } });
    const cb = callback(behaviour);
    expect(
      (await hub.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed }))
        .status,
    ).toBe(202);
    await subscriber.waitFor(cb.name, 'GET', 1);
    await expect
      .poll(async () => (await hub.rows('SELECT * FROM verifications')).length, { timeout: 5000 })
      .toBe(0);
    expect(await hub.rows('SELECT * FROM subscriptions')).toHaveLength(0);
    expect(subscriber.requests('/elsewhere')).toHaveLength(0);
  });

  test('an untrusted TLS certificate', async () => {
    const hub = await startHub();
    const cb = callback({}, untrusted);
    await hub.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed });
    await expect
      .poll(async () => (await hub.rows('SELECT * FROM verifications')).length, { timeout: 5000 })
      .toBe(0);
    expect(await hub.rows('SELECT * FROM subscriptions')).toHaveLength(0);
    expect(untrusted.requests(cb.name)).toHaveLength(0);
  });

  test('a failed re-verification leaves the existing subscription unchanged', async () => {
    const hub = await startHub();
    const cb = callback();
    await subscribed(hub, cb, feed, { 'hub.lease_seconds': '7200' });
    subscriber.behaviours.set(cb.name, { verify: 500 });
    await hub.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'unsubscribe', 'hub.topic': feed });
    await subscriber.waitFor(cb.name, 'GET', 2);
    await expect.poll(async () => (await hub.rows('SELECT * FROM verifications')).length).toBe(0);
    expect(
      await hub.rows('SELECT lease_seconds FROM subscriptions WHERE callback = ?', cb.url),
    ).toEqual([{ lease_seconds: 7200 }]);
  });
});

describe('delivery faults', () => {
  test('three consecutive failures remove the subscription and send hub.mode=denied', async () => {
    const hub = await startHub();
    const cb = callback({ deliveries: [500] });
    await subscribed(hub, cb);
    await publish(hub, feed);
    await subscriber.waitFor(cb.name, 'POST', 3);
    const [denied] = await subscriber.waitFor(cb.name, 'GET', 1, 5000, 'denied');
    expect(denied!.url.searchParams.get('hub.topic')).toBe(feed);
    expect(await hub.rows('SELECT * FROM subscriptions')).toHaveLength(0);
    expect(await hub.rows('SELECT * FROM deliveries')).toHaveLength(0);
    expect(subscriber.requests(cb.name, 'POST')).toHaveLength(3);
  });

  test('retries follow WEBSUB_RETRY_DELAYS_MS', async () => {
    const hub = await startHub({ env: { WEBSUB_RETRY_DELAYS_MS: '300,600' } });
    const cb = callback({ deliveries: [503] });
    await subscribed(hub, cb);
    await publish(hub, feed);
    const posts = await subscriber.waitFor(cb.name, 'POST', 3);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(280);
    expect(posts[2]!.at - posts[1]!.at).toBeGreaterThanOrEqual(580);
  });

  test('fail, fail, success, fail, fail keeps the subscription: a 2xx resets the counter', async () => {
    const dataDir = newDataDir();
    const first = await startHub({ dataDir });
    const cb = callback({ deliveries: [500, 500, 200, 500, 500, 200] });
    await subscribed(first, cb, reviews);
    await publish(first, reviews);
    await subscriber.waitFor(cb.name, 'POST', 3);
    await first.stop();
    // The next deploy: changed content, same hub database.
    const second = await startHub({ dataDir, dist: inject('changedFixtureDist') });
    const answer = await (await publish(second, reviews)).text();
    expect(answer).toContain('1 added, 1 changed, 0 removed');
    const posts = await subscriber.waitFor(cb.name, 'POST', 6);
    expect(subscriber.requests(cb.name, 'GET', 'denied')).toHaveLength(0);
    // The 2xx is recorded just after the subscriber answers: wait for it.
    await expect
      .poll(
        async () =>
          await second.rows('SELECT failures FROM subscriptions WHERE callback = ?', cb.url),
      )
      .toEqual([{ failures: 0 }]);
    const fresh = Buffer.from(await (await fetch(`${second.url}/reviews.json`)).arrayBuffer());
    expect(posts[5]!.body.equals(fresh)).toBe(true);
  });

  test('410 Gone removes the subscription at once', async () => {
    const hub = await startHub();
    const cb = callback({ deliveries: [410] });
    await subscribed(hub, cb);
    await publish(hub, feed);
    await subscriber.waitFor(cb.name, 'POST', 1);
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(0);
    expect(await hub.rows('SELECT * FROM deliveries')).toHaveLength(0);
    expect(subscriber.requests(cb.name, 'POST')).toHaveLength(1);
  });

  test('a hanging callback does not delay the other subscribers', async () => {
    const hub = await startHub({ env: { WEBSUB_TIMEOUT_MS: '5000' } });
    const hanging = callback({ deliveries: ['hang'] });
    const others = [callback(), callback(), callback()];
    await subscribed(hub, hanging);
    for (const other of others) await subscribed(hub, other);
    const started = Date.now();
    await publish(hub, feed);
    for (const other of others) await subscriber.waitFor(other.name, 'POST', 1, 3000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(subscriber.requests(hanging.name, 'POST')).toHaveLength(1);
  });

  test('two POSTs to one callback never overlap', async () => {
    const hub = await startHub();
    const cb = callback({ delayMs: 150 });
    for (const topic of [feed, reviews, `${FIXTURE_SITE_URL}/api/feed.json`])
      await subscribed(hub, cb, topic);
    await publish(hub, feed, reviews, `${FIXTURE_SITE_URL}/api/feed.json`);
    await subscriber.waitFor(cb.name, 'POST', 3);
    expect(subscriber.maxConcurrentPosts.get(cb.name)).toBe(1);
  });
});

describe('durability', () => {
  test('after SIGKILL with a retry pending, the restarted hub keeps the subscription and delivers the retry', async () => {
    const dataDir = newDataDir();
    const env = { WEBSUB_RETRY_DELAYS_MS: '1500,1500' };
    const first = await startHub({ dataDir, env });
    const cb = callback({ deliveries: [500, 200] });
    await subscribed(first, cb);
    await publish(first, feed);
    await subscriber.waitFor(cb.name, 'POST', 1);
    await expect
      .poll(async () => await first.rows('SELECT attempts FROM deliveries'))
      .toEqual([{ attempts: 1 }]);
    await first.stop('SIGKILL');
    const second = await startHub({ dataDir, env });
    expect(await second.rows('SELECT callback FROM subscriptions')).toEqual([{ callback: cb.url }]);
    const posts = await subscriber.waitFor(cb.name, 'POST', 2, 5000);
    expect(posts[1]!.body.equals(posts[0]!.body)).toBe(true);
    await expect.poll(async () => (await second.rows('SELECT * FROM deliveries')).length).toBe(0);
  });
});

describe('leases and change detection', () => {
  test('an expired lease gets nothing', async () => {
    const hub = await startHub({ env: { WEBSUB_LEASE_MIN_SECONDS: '1' } });
    const short = callback();
    const control = callback();
    await subscribed(hub, short, feed, { 'hub.lease_seconds': '1' });
    await subscribed(hub, control);
    const [verification] = subscriber.requests(short.name, 'GET');
    expect(verification!.url.searchParams.get('hub.lease_seconds')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await publish(hub, feed);
    await subscriber.waitFor(control.name, 'POST', 1);
    await expect.poll(async () => (await hub.rows('SELECT * FROM deliveries')).length).toBe(0);
    expect(subscriber.requests(short.name, 'POST')).toHaveLength(0);
  });

  test('leases are clamped to the configured bounds, and the granted value is what verification sends', async () => {
    const hub = await startHub();
    const low = callback();
    const high = callback();
    await hub.subscribe({
      'hub.callback': low.url,
      'hub.mode': 'subscribe',
      'hub.topic': feed,
      'hub.lease_seconds': '5',
    });
    await hub.subscribe({
      'hub.callback': high.url,
      'hub.mode': 'subscribe',
      'hub.topic': feed,
      'hub.lease_seconds': '99999999999999999999',
    });
    expect(
      (await subscriber.waitFor(low.name, 'GET', 1))[0]!.url.searchParams.get('hub.lease_seconds'),
    ).toBe('3600');
    expect(
      (await subscriber.waitFor(high.name, 'GET', 1))[0]!.url.searchParams.get('hub.lease_seconds'),
    ).toBe('864000');
  });

  test('only changed topics are notified; an unchanged publish sends nothing', async () => {
    const hub = await startHub();
    const cb = callback();
    await subscribed(hub, cb, feed);
    const first = await (await publish(hub, feed)).text();
    expect(first).toContain('changed');
    await subscriber.waitFor(cb.name, 'POST', 1);
    const second = await (await publish(hub, feed, reviews)).text();
    expect(second).toContain(`${feed}: unchanged, nothing sent`);
    expect(second).toContain(
      `${reviews}: changed (first distribution: 6 reviews), notifying 0 subscribers`,
    );
    await expect.poll(async () => (await hub.rows('SELECT * FROM deliveries')).length).toBe(0);
    expect(subscriber.requests(cb.name, 'POST')).toHaveLength(1);
  });
});
