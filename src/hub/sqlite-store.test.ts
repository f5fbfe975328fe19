import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { testHubStoreContract } from '../../test/support/hub-store-contract.ts';
import { SqliteHubStore } from './sqlite-store.ts';

testHubStoreContract(async () => new SqliteHubStore(':memory:'));

test('subscriptions saved with host:port (as the cap once counted them) are counted by host name once reopened', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'hub-store-'));
  try {
    const file = path.join(dir, 'hub.sqlite');
    const old = new SqliteHubStore(file);
    const saved = { topic: 'https://reviews.example/feed.xml', secret: null, leaseSeconds: 60 };
    const at = { expiresAt: 2_000_000, failures: 0, verifiedAt: 1_000_000 };
    for (const [callback, callbackHost] of [
      ['https://sub.example:8443/a', 'sub.example:8443'],
      ['https://sub.example/b', 'sub.example'],
      ['https://[2001:db8::1]:8443/c', '[2001:db8::1]:8443'],
      ['https://[2001:db8::1]/d', '[2001:db8::1]'],
    ] as const)
      await old.saveSubscription({ ...saved, ...at, callback, callbackHost });
    await old.close();
    const store = new SqliteHubStore(file);
    expect(await store.countActiveSubscriptionsForHost('sub.example', 1_000_000)).toBe(2);
    expect(await store.countActiveSubscriptionsForHost('[2001:db8::1]', 1_000_000)).toBe(2);
    expect(
      (await store.getSubscription('https://sub.example:8443/a', saved.topic))?.callbackHost,
    ).toBe('sub.example');
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
