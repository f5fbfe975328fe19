// `npm run bench:hub [-- N] [--instances 1|2] [--store sqlite|postgres]`: WebSub fan-out. N
// subscribers (default 1000) on one topic, all on one HTTPS callback server with distinct paths;
// measures the time from the publish ping to the last acknowledged delivery, and deliveries per
// second. PostgreSQL is a throwaway server started here (Debian's binaries); with two instances
// both share it. Builds the fixture site under test-results/ and uses the test CA.
import {
  FIXTURE_CONTENT,
  FIXTURE_SITE_URL,
  buildSite,
  distPath,
} from '../../test/support/build-site.ts';
import { newDataDir, startHubProcess, type HubProcess } from '../../test/support/hub-process.ts';
import { startTestPostgres, type TestPostgres } from '../../test/support/postgres.ts';
import { TestSubscriber } from '../../test/support/subscriber.ts';
import { ensureTestCertificates } from '../../test/support/tls.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const count = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 1000);
const instances = Number(option('instances', '1'));
const storeKind = option('store', 'sqlite');
if (![1, 2].includes(instances) || !['sqlite', 'postgres'].includes(storeKind)) {
  console.error('usage: bench:hub [N] [--instances 1|2] [--store sqlite|postgres]');
  process.exit(2);
}
if (instances > 1 && storeKind !== 'postgres') {
  console.error('several instances share work only on PostgreSQL: add --store postgres');
  process.exit(2);
}

const topic = `${FIXTURE_SITE_URL}/feed.xml`;
const dist = distPath('dist-bench-hub');
await buildSite({ contentDir: FIXTURE_CONTENT, distDir: dist });

const tls = ensureTestCertificates();
const subscriber = await new TestSubscriber(tls.trusted).start();
let postgres: TestPostgres | undefined;
const hubs: HubProcess[] = [];
try {
  postgres = storeKind === 'postgres' ? await startTestPostgres() : undefined;
  const databaseUrl = postgres ? await postgres.createDatabase('bench_hub') : undefined;
  const dataDir = newDataDir();
  for (let i = 0; i < instances; i += 1) {
    hubs.push(
      await startHubProcess({
        distDir: dist,
        caFile: tls.caFile,
        dataDir,
        ...(databaseUrl ? { databaseUrl } : {}),
        env: {
          WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: String(count + 10),
          WEBSUB_RATE_LIMIT_PER_MINUTE: String(count * 10),
        },
      }),
    );
  }
  const [hub] = hubs as [HubProcess];
  const names = Array.from({ length: count }, (_, i) => `/s/${i}`);
  const subscribeStarted = performance.now();
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(
      names.slice(i, i + 50).map((name, k) =>
        hubs[k % hubs.length]!.subscribe({
          'hub.callback': subscriber.callback(name),
          'hub.mode': 'subscribe',
          'hub.topic': topic,
        }),
      ),
    );
  }
  while (Number((await hub.rows('SELECT COUNT(*) AS n FROM subscriptions'))[0]!.n) < count)
    await new Promise((r) => setTimeout(r, 50));
  const verifySeconds = (performance.now() - subscribeStarted) / 1000;

  const publishedAt = Date.now();
  const answer = await hub.subscribe({ 'hub.mode': 'publish', 'hub.url': topic });
  if (answer.status !== 202) throw new Error(`publish answered ${answer.status}`);
  const received = () =>
    names.reduce((sum, name) => sum + subscriber.requests(name, 'POST').length, 0);
  while (received() < count) await new Promise((r) => setTimeout(r, 5));
  const last = Math.max(...names.map((name) => subscriber.requests(name, 'POST')[0]!.at));
  const fanoutMs = last - publishedAt;
  const duplicates = names.filter((name) => subscriber.requests(name, 'POST').length !== 1).length;
  console.log(
    JSON.stringify({
      subscribers: count,
      instances,
      store: storeKind === 'postgres' ? 'postgresql' : 'node:sqlite',
      subscribe_and_verify_s: +verifySeconds.toFixed(2),
      publish_to_last_delivery_ms: fanoutMs,
      deliveries_per_s: Math.round(count / (fanoutMs / 1000)),
      subscribers_without_exactly_one_post: duplicates,
    }),
  );
} finally {
  await Promise.all(hubs.map((hub) => hub.stop()));
  await subscriber.close();
  postgres?.stop();
}
