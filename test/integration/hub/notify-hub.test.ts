// `npm run notify-hub` against the real hub: reports first distribution, then what changed.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, inject, test } from 'vitest';
import { FIXTURE_SITE_URL, ROOT } from '../../support/build-site.ts';
import { newDataDir, startHubProcess, type HubProcess } from '../../support/hub-process.ts';
import { TestSubscriber } from '../../support/subscriber.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

const run = promisify(execFile);
const tls = ensureTestCertificates();
const started: HubProcess[] = [];
afterAll(() => Promise.all(started.map((hub) => hub.stop())));

function notify(hub: HubProcess) {
  return run(
    process.execPath,
    [path.join(ROOT, 'scripts/notify-hub.ts'), '--hub', `${hub.url}/api/websub/hub`],
    {
      env: { ...process.env, SITE_URL: FIXTURE_SITE_URL },
    },
  );
}

test('prints what changed for each topic and how many subscribers are notified', async () => {
  const subscriber = await new TestSubscriber(tls.trusted).start();
  try {
    const dataDir = newDataDir();
    const first = await startHubProcess({
      distDir: inject('fixtureDist'),
      caFile: tls.caFile,
      dataDir,
    });
    started.push(first);
    await first.subscribe({
      'hub.callback': subscriber.callback('/n'),
      'hub.mode': 'subscribe',
      'hub.topic': `${FIXTURE_SITE_URL}/reviews.json`,
    });
    await expect.poll(async () => (await first.rows('SELECT * FROM subscriptions')).length).toBe(1);
    const initial = await notify(first);
    expect(initial.stdout).toContain(
      `${FIXTURE_SITE_URL}/reviews.json: changed (first distribution: 6 reviews), notifying 1 subscriber`,
    );
    expect(initial.stdout).toContain(`${FIXTURE_SITE_URL}/feed.xml: changed`);
    expect((await notify(first)).stdout).toContain(
      `${FIXTURE_SITE_URL}/reviews.json: unchanged, nothing sent`,
    );
    await subscriber.waitFor('/n', 'POST', 1);
    await first.stop();

    const second = await startHubProcess({
      distDir: inject('changedFixtureDist'),
      caFile: tls.caFile,
      dataDir,
    });
    started.push(second);
    const changed = await notify(second);
    expect(changed.stdout).toContain(
      'reviews: 1 added, 1 changed, 0 removed), notifying 1 subscriber',
    );
    await subscriber.waitFor('/n', 'POST', 2);
  } finally {
    await subscriber.close();
  }
});

test('exits 1 with a message when the hub cannot be reached', async () => {
  await expect(
    run(process.execPath, [
      path.join(ROOT, 'scripts/notify-hub.ts'),
      '--hub',
      'http://127.0.0.1:9/api/websub/hub',
    ]),
  ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('could not reach the hub') });
});
