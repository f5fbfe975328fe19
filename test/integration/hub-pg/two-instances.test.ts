// Two server instances on one PostgreSQL database share verification and delivery work: nothing
// is delivered twice, a change pinged at both is distributed once, and a dead instance's work is
// taken over.
import { afterAll, afterEach, beforeAll, expect, inject, test } from 'vitest';
import { FIXTURE_SITE_URL } from '../../support/build-site.ts';
import { newDataDir, startHubProcess, type HubProcess } from '../../support/hub-process.ts';
import { TestSubscriber, type CallbackBehaviour } from '../../support/subscriber.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

const tls = ensureTestCertificates();
const feed = `${FIXTURE_SITE_URL}/feed.xml`;
let subscriber: TestSubscriber;
const running: HubProcess[] = [];
let counter = 0;

beforeAll(async () => {
  subscriber = await new TestSubscriber(tls.trusted).start();
});
afterAll(() => subscriber.close());
afterEach(async () => {
  await Promise.all(running.splice(0).map((hub) => hub.stop()));
});

/** Two instances of the same build on one database (the same data dir stands for it). */
async function twoInstances(env: Record<string, string> = {}): Promise<[HubProcess, HubProcess]> {
  const dataDir = newDataDir();
  const options = {
    distDir: inject('fixtureDist'),
    caFile: tls.caFile,
    dataDir,
    env: { WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '1000', ...env },
  };
  const first = await startHubProcess(options);
  const second = await startHubProcess(options);
  running.push(first, second);
  return [first, second];
}

function callback(behaviour: CallbackBehaviour = {}) {
  counter += 1;
  const name = `/two-${counter}`;
  return { name, url: subscriber.callback(name, behaviour) };
}

const publish = (hub: HubProcess) => hub.subscribe({ 'hub.mode': 'publish', 'hub.url': feed });
const count = async (hub: HubProcess, sql: string) => Number((await hub.rows(sql))[0]!.n);

test('a subscription made through one instance is verified and notified by either, once', async () => {
  const [a, b] = await twoInstances();
  const cb = callback();
  expect(
    (await a.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed }))
      .status,
  ).toBe(202);
  await subscriber.waitFor(cb.name, 'GET', 1);
  await expect.poll(() => count(b, 'SELECT COUNT(*) AS n FROM subscriptions')).toBe(1);
  expect(await (await publish(b)).text()).toContain('notifying 1 subscriber');
  await subscriber.waitFor(cb.name, 'POST', 1);
  await expect.poll(() => count(a, 'SELECT COUNT(*) AS n FROM deliveries')).toBe(0);
  expect(subscriber.requests(cb.name, 'GET')).toHaveLength(1);
  expect(subscriber.requests(cb.name, 'POST')).toHaveLength(1);
});

test('a change pinged at both instances at once gives exactly one POST per subscriber', async () => {
  const [a, b] = await twoInstances();
  const callbacks = [callback(), callback(), callback(), callback()];
  for (const cb of callbacks)
    await a.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed });
  await expect
    .poll(() => count(a, 'SELECT COUNT(*) AS n FROM subscriptions'))
    .toBe(callbacks.length);
  const answers = await Promise.all([publish(a), publish(b)]);
  const reports = await Promise.all(answers.map((answer) => answer.text()));
  expect(reports.filter((report) => report.includes(`${feed}: changed`))).toHaveLength(1);
  expect(reports.filter((report) => report.includes(`${feed}: unchanged`))).toHaveLength(1);
  for (const cb of callbacks) await subscriber.waitFor(cb.name, 'POST', 1);
  await expect.poll(() => count(a, 'SELECT COUNT(*) AS n FROM deliveries')).toBe(0);
  for (const cb of callbacks) expect(subscriber.requests(cb.name, 'POST'), cb.name).toHaveLength(1);
});

test('SIGKILL of the instance holding a pending retry: the other delivers it', async () => {
  const [a, b] = await twoInstances({ WEBSUB_RETRY_DELAYS_MS: '1500,1500' });
  await b.stop('SIGKILL');
  const cb = callback({ deliveries: [500, 200] });
  await a.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed });
  await expect.poll(() => count(a, 'SELECT COUNT(*) AS n FROM subscriptions')).toBe(1);
  await publish(a);
  await subscriber.waitFor(cb.name, 'POST', 1);
  await expect
    .poll(async () => await a.rows('SELECT attempts FROM deliveries'))
    .toEqual([{ attempts: 1 }]);
  const dataDir = a.dataDir;
  await a.stop('SIGKILL');
  const c = await startHubProcess({
    distDir: inject('fixtureDist'),
    caFile: tls.caFile,
    dataDir,
    env: { WEBSUB_RETRY_DELAYS_MS: '1500,1500' },
  });
  running.push(c);
  const posts = await subscriber.waitFor(cb.name, 'POST', 2, 8000);
  expect(posts[1]!.body.equals(posts[0]!.body)).toBe(true);
  await expect.poll(() => count(c, 'SELECT COUNT(*) AS n FROM deliveries')).toBe(0);
});

test('a delivery claimed by an instance that dies mid-POST is taken over when its claim expires', async () => {
  const env = { WEBSUB_TIMEOUT_MS: '1000', WEBSUB_CLAIM_SECONDS: '2' };
  const [a, b] = await twoInstances(env);
  await b.stop('SIGKILL');
  const cb = callback({ deliveries: ['hang', 200] });
  await a.subscribe({ 'hub.callback': cb.url, 'hub.mode': 'subscribe', 'hub.topic': feed });
  await expect.poll(() => count(a, 'SELECT COUNT(*) AS n FROM subscriptions')).toBe(1);
  await publish(a);
  await subscriber.waitFor(cb.name, 'POST', 1);
  await a.stop('SIGKILL');
  const c = await startHubProcess({
    distDir: inject('fixtureDist'),
    caFile: tls.caFile,
    dataDir: a.dataDir,
    env,
  });
  running.push(c);
  const posts = await subscriber.waitFor(cb.name, 'POST', 2, 8000);
  expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1500);
  await expect.poll(() => count(c, 'SELECT COUNT(*) AS n FROM deliveries')).toBe(0);
});

test('200 subscribers on one topic with both instances running: every subscriber exactly one POST', async () => {
  const [a, b] = await twoInstances();
  const callbacks = Array.from({ length: 200 }, () => callback());
  for (let i = 0; i < callbacks.length; i += 20) {
    await Promise.all(
      callbacks.slice(i, i + 20).map((cb, k) =>
        (k % 2 ? a : b).subscribe({
          'hub.callback': cb.url,
          'hub.mode': 'subscribe',
          'hub.topic': feed,
        }),
      ),
    );
  }
  await expect
    .poll(() => count(a, 'SELECT COUNT(*) AS n FROM subscriptions'), { timeout: 20_000 })
    .toBe(200);
  await Promise.all([publish(a), publish(b)]);
  for (const cb of callbacks) await subscriber.waitFor(cb.name, 'POST', 1, 20_000);
  await expect
    .poll(() => count(a, 'SELECT COUNT(*) AS n FROM deliveries'), { timeout: 20_000 })
    .toBe(0);
  const posts = callbacks.map((cb) => subscriber.requests(cb.name, 'POST').length);
  expect(posts.every((n) => n === 1)).toBe(true);
  expect(callbacks.every((cb) => subscriber.requests(cb.name, 'GET').length === 1)).toBe(true);
}, 60_000);
