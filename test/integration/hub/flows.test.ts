// The websub.rocks hub flows 100–104 on each of the three topics, against the real server process
// and an HTTPS subscriber whose CA the hub trusts through NODE_EXTRA_CA_CERTS.
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest';
import { TOPIC_PATHS, topicLinkHeader } from '../../../src/core/site.ts';
import { FIXTURE_SITE_URL } from '../../support/build-site.ts';
import { startHubProcess, type HubProcess } from '../../support/hub-process.ts';
import { TestSubscriber } from '../../support/subscriber.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

const tls = ensureTestCertificates();
let subscriber: TestSubscriber;
let hub: HubProcess;
let counter = 0;

beforeAll(async () => {
  subscriber = await new TestSubscriber(tls.trusted).start();
});
afterAll(() => subscriber.close());
afterEach(() => hub?.stop());

async function startHub(): Promise<HubProcess> {
  hub = await startHubProcess({ distDir: inject('fixtureDist'), caFile: tls.caFile });
  return hub;
}

function publish(topic: string): Promise<Response> {
  return hub.subscribe({ 'hub.mode': 'publish', 'hub.url': topic });
}

/** The notification must carry exactly what a GET of the topic serves. */
async function expectNotificationMatchesTopic(
  notification: { body: Buffer; headers: Record<string, unknown> },
  path: (typeof TOPIC_PATHS)[number],
) {
  const fresh = await fetch(`${hub.url}${path}`);
  expect(notification.body.equals(Buffer.from(await fresh.arrayBuffer()))).toBe(true);
  expect(notification.headers['content-type']).toBe(fresh.headers.get('content-type'));
  expect(notification.headers.link).toBe(topicLinkHeader(FIXTURE_SITE_URL, path));
  expect(String(notification.headers['user-agent'])).toContain('roofing-reviews-hub');
}

describe.each(TOPIC_PATHS)('topic %s', (path) => {
  const topic = `${FIXTURE_SITE_URL}${path}`;
  const nextCallback = (behaviour = {}) => {
    counter += 1;
    const name = `/flow-${counter}`;
    return { name, url: subscriber.callback(name, behaviour) };
  };

  test('100: subscribe, verify with the lease, then a publish delivers the topic bytes', async () => {
    await startHub();
    const cb = nextCallback();
    const response = await hub.subscribe({
      'hub.callback': cb.url,
      'hub.mode': 'subscribe',
      'hub.topic': topic,
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const [verification] = await subscriber.waitFor(cb.name, 'GET', 1);
    expect(verification!.url.searchParams.get('hub.mode')).toBe('subscribe');
    expect(verification!.url.searchParams.get('hub.topic')).toBe(topic);
    expect(verification!.url.searchParams.get('hub.lease_seconds')).toBe('864000');
    expect(verification!.url.searchParams.get('hub.challenge')!.length).toBeGreaterThanOrEqual(32);
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(1);
    expect((await publish(topic)).status).toBe(202);
    const [notification] = await subscriber.waitFor(cb.name, 'POST', 1);
    await expectNotificationMatchesTopic(notification!, path);
    expect(notification!.headers['x-hub-signature']).toBeUndefined();
  });

  test('101: with hub.secret the notification is signed with HMAC-SHA256 of the body', async () => {
    await startHub();
    const cb = nextCallback();
    const secret = 'a shared secret with ünïcode';
    await hub.subscribe({
      'hub.callback': cb.url,
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.secret': secret,
    });
    await subscriber.waitFor(cb.name, 'GET', 1);
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(1);
    await publish(topic);
    const [notification] = await subscriber.waitFor(cb.name, 'POST', 1);
    const expected = `sha256=${createHmac('sha256', secret).update(notification!.body).digest('hex')}`;
    expect(notification!.headers['x-hub-signature']).toBe(expected);
    await expectNotificationMatchesTopic(notification!, path);
  });

  test("102: extra parameters are ignored and the callback's own query is kept", async () => {
    await startHub();
    const cb = nextCallback();
    const callback = `${cb.url}?subscriber=abc&x=1`;
    const response = await hub.subscribe({
      'hub.callback': callback,
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.extra': 'ignored',
      foo: 'bar',
    });
    expect(response.status).toBe(202);
    const [verification] = await subscriber.waitFor(cb.name, 'GET', 1);
    expect(verification!.url.searchParams.get('subscriber')).toBe('abc');
    expect(verification!.url.searchParams.get('x')).toBe('1');
    expect(verification!.url.searchParams.get('foo')).toBeNull();
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(1);
    await publish(topic);
    const [notification] = await subscriber.waitFor(cb.name, 'POST', 1);
    expect(notification!.url.searchParams.get('subscriber')).toBe('abc');
    await expectNotificationMatchesTopic(notification!, path);
  });

  test('103: re-subscribing verifies again, then a publish sends exactly one notification', async () => {
    await startHub();
    const cb = nextCallback();
    const control = nextCallback();
    const fields = { 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': topic };
    await hub.subscribe(fields);
    await subscriber.waitFor(cb.name, 'GET', 1);
    await hub.subscribe({ ...fields, 'hub.lease_seconds': '7200' });
    const verifications = await subscriber.waitFor(cb.name, 'GET', 2);
    expect(verifications[1]!.url.searchParams.get('hub.lease_seconds')).toBe('7200');
    expect(verifications[1]!.url.searchParams.get('hub.challenge')).not.toBe(
      verifications[0]!.url.searchParams.get('hub.challenge'),
    );
    await hub.subscribe({
      'hub.callback': control.url,
      'hub.mode': 'subscribe',
      'hub.topic': topic,
    });
    await subscriber.waitFor(control.name, 'GET', 1);
    await expect
      .poll(
        async () =>
          await hub.rows('SELECT lease_seconds FROM subscriptions ORDER BY lease_seconds'),
      )
      .toEqual([{ lease_seconds: 7200 }, { lease_seconds: 864000 }]);
    await publish(topic);
    await subscriber.waitFor(control.name, 'POST', 1);
    const [notification] = await subscriber.waitFor(cb.name, 'POST', 1);
    await expectNotificationMatchesTopic(notification!, path);
    await expect.poll(async () => (await hub.rows('SELECT * FROM deliveries')).length).toBe(0);
    expect(subscriber.requests(cb.name, 'POST')).toHaveLength(1);
  });

  test('104: after a verified unsubscribe the next publish sends nothing', async () => {
    await startHub();
    const cb = nextCallback();
    const control = nextCallback();
    await hub.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': topic });
    await hub.subscribe({
      'hub.callback': control.url,
      'hub.mode': 'subscribe',
      'hub.topic': topic,
    });
    await subscriber.waitFor(cb.name, 'GET', 1);
    await subscriber.waitFor(control.name, 'GET', 1);
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(2);
    expect(
      (
        await hub.subscribe({
          'hub.callback': cb.url,
          'hub.mode': 'unsubscribe',
          'hub.topic': topic,
        })
      ).status,
    ).toBe(202);
    const [, unsubscribe] = await subscriber.waitFor(cb.name, 'GET', 2);
    expect(unsubscribe!.url.searchParams.get('hub.mode')).toBe('unsubscribe');
    expect(unsubscribe!.url.searchParams.get('hub.lease_seconds')).toBeNull();
    await expect.poll(async () => (await hub.rows('SELECT * FROM subscriptions')).length).toBe(1);
    await publish(topic);
    await subscriber.waitFor(control.name, 'POST', 1);
    await expect.poll(async () => (await hub.rows('SELECT * FROM deliveries')).length).toBe(0);
    expect(subscriber.requests(cb.name, 'POST')).toHaveLength(0);
  });
});
