// `npm run bench:hub [-- N]`: WebSub fan-out. N subscribers (default 1000) on one topic, all on one
// HTTPS callback server with distinct paths; measures the time from the publish ping to the last
// acknowledged delivery, and deliveries per second. Uses the fixture build under test-results/
// (run the tests once, or it builds it) and the test CA.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  FIXTURE_CONTENT,
  FIXTURE_SITE_URL,
  buildSite,
  distPath,
} from '../../test/support/build-site.ts';
import { startHubProcess } from '../../test/support/hub-process.ts';
import { TestSubscriber } from '../../test/support/subscriber.ts';
import { ensureTestCertificates } from '../../test/support/tls.ts';

const count = Number(process.argv[2] ?? 1000);
const topic = `${FIXTURE_SITE_URL}/feed.xml`;
const dist = distPath('dist-bench-hub');
if (!existsSync(path.join(dist, 'site-manifest.json')))
  await buildSite({ contentDir: FIXTURE_CONTENT, distDir: dist });

const tls = ensureTestCertificates();
const subscriber = await new TestSubscriber(tls.trusted).start();
const hub = await startHubProcess({
  distDir: dist,
  caFile: tls.caFile,
  env: {
    WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: String(count + 10),
    WEBSUB_RATE_LIMIT_PER_MINUTE: String(count * 10),
  },
});

try {
  const names = Array.from({ length: count }, (_, i) => `/s/${i}`);
  const subscribeStarted = performance.now();
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(
      names.slice(i, i + 50).map((name) =>
        hub.subscribe({
          'hub.callback': subscriber.callback(name),
          'hub.mode': 'subscribe',
          'hub.topic': topic,
        }),
      ),
    );
  }
  while (Number(hub.rows('SELECT COUNT(*) AS n FROM subscriptions')[0]!.n) < count)
    await new Promise((r) => setTimeout(r, 50));
  const verifySeconds = (performance.now() - subscribeStarted) / 1000;

  const published = performance.now();
  const answer = await hub.subscribe({ 'hub.mode': 'publish', 'hub.url': topic });
  if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
  const received = () =>
    names.reduce((sum, name) => sum + subscriber.requests(name, 'POST').length, 0);
  while (received() < count) await new Promise((r) => setTimeout(r, 5));
  const last = Math.max(...names.map((name) => subscriber.requests(name, 'POST')[0]!.at));
  const fanoutMs = last - (Date.now() - (performance.now() - published));
  console.log(
    JSON.stringify({
      subscribers: count,
      subscribe_and_verify_s: +verifySeconds.toFixed(2),
      publish_to_last_delivery_ms: Math.round(fanoutMs),
      deliveries_per_s: Math.round(count / (fanoutMs / 1000)),
      store: 'node:sqlite',
    }),
  );
} finally {
  await hub.stop();
  await subscriber.close();
}
