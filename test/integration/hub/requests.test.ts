// Bad hub requests get their 4xx with a plain-text reason and cause no verification GET; limits
// (rate, per-host cap, body size) answer as docs/decisions.md#websub-hub says.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { FIXTURE_SITE_URL } from '../../support/build-site.ts';
import { startHubProcess, type HubProcess } from '../../support/hub-process.ts';
import { TestSubscriber } from '../../support/subscriber.ts';
import { ensureTestCertificates } from '../../support/tls.ts';

const tls = ensureTestCertificates();
const topic = `${FIXTURE_SITE_URL}/feed.xml`;
let subscriber: TestSubscriber;
let hub: HubProcess;

beforeAll(async () => {
  subscriber = await new TestSubscriber(tls.trusted).start();
  hub = await startHubProcess({ distDir: inject('fixtureDist'), caFile: tls.caFile });
});
afterAll(async () => {
  await hub.stop();
  await subscriber.close();
});

describe('bad requests', () => {
  const cb = () => subscriber.callback('/bad');
  const cases: [string, () => Record<string, string>, number, string][] = [
    [
      'http callback',
      () => ({
        'hub.callback': cb().replace('https:', 'http:'),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
      }),
      400,
      'https',
    ],
    [
      'relative callback',
      () => ({ 'hub.callback': '/bad', 'hub.mode': 'subscribe', 'hub.topic': topic }),
      400,
      'hub.callback',
    ],
    [
      'callback on port 0',
      () => ({
        'hub.callback': cb().replace(/:\d+\//, ':0/'),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
      }),
      400,
      'port 0',
    ],
    [
      'callback without its host',
      () => ({ 'hub.callback': 'https:///bad', 'hub.mode': 'subscribe', 'hub.topic': topic }),
      400,
      'name its host',
    ],
    [
      'missing callback',
      () => ({ 'hub.mode': 'subscribe', 'hub.topic': topic }),
      400,
      'hub.callback',
    ],
    [
      'unknown topic',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': `${FIXTURE_SITE_URL}/other.xml`,
      }),
      400,
      'unknown topic',
    ],
    [
      'topic on another host',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': 'https://elsewhere.example/feed.xml',
      }),
      400,
      'unknown topic',
    ],
    [
      'reserved character encoded in topic',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': `${FIXTURE_SITE_URL}%2Ffeed.xml`,
      }),
      400,
      'unknown topic',
    ],
    [
      'bad mode',
      () => ({ 'hub.callback': cb(), 'hub.mode': 'subscribe-please', 'hub.topic': topic }),
      400,
      'hub.mode',
    ],
    ['missing mode', () => ({ 'hub.callback': cb(), 'hub.topic': topic }), 400, 'hub.mode'],
    [
      'lease not a number',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.lease_seconds': 'ten',
      }),
      400,
      'hub.lease_seconds',
    ],
    [
      'negative lease',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.lease_seconds': '-5',
      }),
      400,
      'hub.lease_seconds',
    ],
    [
      'zero lease',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.lease_seconds': '0',
      }),
      400,
      'hub.lease_seconds',
    ],
    [
      'fractional lease',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.lease_seconds': '3600.5',
      }),
      400,
      'hub.lease_seconds',
    ],
    // 100 two-byte characters: 100 characters but 200 bytes (WebSub §5.1 counts bytes).
    [
      'secret of 200 bytes',
      () => ({
        'hub.callback': cb(),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.secret': 'é'.repeat(100),
      }),
      400,
      'hub.secret',
    ],
    [
      'publish of an unknown topic',
      () => ({ 'hub.mode': 'publish', 'hub.url': `${FIXTURE_SITE_URL}/nope.json` }),
      400,
      'unknown topic',
    ],
    ['publish without a topic', () => ({ 'hub.mode': 'publish' }), 400, 'hub.url'],
  ];

  test.each(cases)(
    '%s is refused with its status and a plain-text reason',
    async (_name, fields, status, words) => {
      const response = await hub.subscribe(fields());
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toContain(words);
    },
  );

  test('wrong content type is 415', async () => {
    const response = await hub.post(
      JSON.stringify({ 'hub.mode': 'subscribe' }),
      'application/json',
    );
    expect(response.status).toBe(415);
    expect(await response.text()).toContain('application/x-www-form-urlencoded');
    const latin1 = await hub.post(
      'hub.mode=subscribe',
      'application/x-www-form-urlencoded; charset=iso-8859-1',
    );
    expect(latin1.status).toBe(415);
  });

  test('a compressed body is 415, not read as if it were plain', async () => {
    const response = await fetch(`${hub.url}/api/websub/hub`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Encoding': 'br',
      },
      body: 'hub.mode=publish',
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toContain('Content-Encoding is not supported');
  });

  test('a body that is not UTF-8, or holds a malformed escape, is 400 and verifies nothing', async () => {
    const post = (body: Buffer) =>
      fetch(`${hub.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new Uint8Array(body),
      });
    const fieldsFor = (callback: string) =>
      `hub.mode=subscribe&hub.topic=${encodeURIComponent(topic)}&hub.callback=${encodeURIComponent(callback)}`;
    const fields = fieldsFor(cb());
    // Each would have been read with U+FFFD in place of its bytes: a secret the subscriber does
    // not hold would sign every delivery.
    for (const body of [
      Buffer.from(`${fields}&hub.secret=%FF%FE`),
      Buffer.concat([Buffer.from(`${fields}&hub.secret=caf`), Buffer.from([0xe9])]),
      Buffer.from(`${fields}&hub.secret=100%`),
      Buffer.from(`${fields}&hub.secret=%ZZ`),
    ]) {
      const response = await post(body);
      expect(response.status, body.toString('latin1')).toBe(400);
      expect(await response.text()).toContain('not valid percent-encoded UTF-8');
    }
    // Another callback: this one is verified.
    const good = await post(
      Buffer.from(
        `${fieldsFor(subscriber.callback('/form-ok'))}&hub.secret=${encodeURIComponent('café €')}`,
      ),
    );
    expect(good.status).toBe(202);
  });

  test('an oversized body is 413', async () => {
    const response = await hub.post(`hub.mode=subscribe&pad=${'x'.repeat(20 * 1024)}`);
    expect(response.status).toBe(413);
  });

  /** A POST sent as the server's own clients may: chunked, or cut off after part of its body. */
  function rawPost(
    path: string,
    contentType: string | string[],
    body: { chunks: string[] } | { declared: number; sent: string },
  ): Promise<number | 'closed'> {
    return new Promise((resolve) => {
      const { hostname, port } = new URL(hub.url);
      const headers: Record<string, string | string[]> = {
        'Content-Type': contentType,
        Accept: 'application/json, text/event-stream',
      };
      if ('declared' in body) headers['Content-Length'] = String(body.declared);
      const req = request({ host: hostname, port, method: 'POST', path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', () => resolve('closed'));
      if ('chunks' in body) {
        for (const chunk of body.chunks) req.write(chunk);
        req.end();
      } else {
        req.write(body.sent, () => setTimeout(() => req.destroy(), 50));
        req.on('close', () => resolve('closed'));
      }
    });
  }

  test('bodies too large to read or cut off by the client leave the server up and no error in its log', async () => {
    const before = hub.output().length;
    const big = ['a'.repeat(40_000), 'a'.repeat(40_000)];
    expect(await rawPost('/mcp', 'application/json', { chunks: big })).toBe(413);
    expect(
      await rawPost('/api/websub/hub', 'application/x-www-form-urlencoded', { chunks: big }),
    ).toBe(413);
    for (const [path, contentType] of [
      ['/mcp', 'application/json'],
      ['/api/websub/hub', 'application/x-www-form-urlencoded'],
    ] as const)
      expect(await rawPost(path, contentType, { declared: 100, sent: 'hub.mode=sub' })).toBe(
        'closed',
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${hub.url}/healthz`)).status).toBe(200);
    const log = hub
      .output()
      .slice(before)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(log.filter((line) => line.level >= 50)).toEqual([]);
    expect(log.filter((line) => /closed the connection/.test(line.msg))).toHaveLength(2);
    expect(JSON.stringify(log)).not.toMatch(/"stack"|ECONNRESET/);
  });

  test('two Content-Type headers are 415 on the hub and /mcp: the first is not taken on trust', async () => {
    // Node keeps only the first of a repeated Content-Type; a proxy in front may keep the last.
    const form = `hub.mode=subscribe&hub.topic=${encodeURIComponent(topic)}&hub.callback=${encodeURIComponent(subscriber.callback('/twice'))}`;
    expect(
      await rawPost('/api/websub/hub', ['application/x-www-form-urlencoded', 'text/plain'], {
        chunks: [form],
      }),
    ).toBe(415);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    expect(
      await rawPost('/mcp', ['application/json', 'text/plain'], { chunks: [initialize] }),
    ).toBe(415);
    // One header each: accepted.
    expect(
      await rawPost('/api/websub/hub', 'application/x-www-form-urlencoded', { chunks: [form] }),
    ).toBe(202);
    expect(await rawPost('/mcp', 'application/json', { chunks: [initialize] })).toBe(200);
  });

  test.each(['GET', 'PUT', 'DELETE'])('%s is 405 with Allow', async (method) => {
    const response = await fetch(`${hub.url}/api/websub/hub`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('a secret of 199 bytes is accepted', async () => {
    const response = await hub.subscribe({
      'hub.callback': subscriber.callback('/secret-199'),
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.secret': `${'é'.repeat(99)}a`,
    });
    expect(response.status).toBe(202);
    await subscriber.waitFor('/secret-199', 'GET', 1);
  });

  test('percent-encoded unreserved characters in the topic are decoded before matching', async () => {
    const encoded = topic.replace('feed', '%66%65ed').replace('.xml', '%2Exml');
    const response = await hub.subscribe({
      'hub.callback': subscriber.callback('/encoded'),
      'hub.mode': 'subscribe',
      'hub.topic': encoded,
    });
    expect(response.status).toBe(202);
    const [verification] = await subscriber.waitFor('/encoded', 'GET', 1);
    expect(verification!.url.searchParams.get('hub.topic')).toBe(topic);
  });

  test('none of the bad requests caused a verification GET', async () => {
    // The accepted requests above were verified; by then a bad one would have been too.
    await subscriber.waitFor('/encoded', 'GET', 1);
    expect(subscriber.requests('/bad')).toHaveLength(0);
  });
});

describe('private callbacks', () => {
  test('are refused with 400 unless WEBSUB_ALLOW_PRIVATE_CALLBACKS is set, and nothing is fetched', async () => {
    const strict = await startHubProcess({
      distDir: inject('fixtureDist'),
      caFile: tls.caFile,
      env: { WEBSUB_ALLOW_PRIVATE_CALLBACKS: '0' },
    });
    try {
      for (const callback of [
        subscriber.callback('/private'),
        'https://127.0.0.1/x',
        'https://2130706433/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://10.0.0.1/x',
      ]) {
        const response = await strict.subscribe({
          'hub.callback': callback,
          'hub.mode': 'subscribe',
          'hub.topic': topic,
        });
        expect(response.status, callback).toBe(400);
        expect(await response.text()).toMatch(/not public/);
      }
      expect(subscriber.requests('/private')).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });
});

describe('limits', () => {
  test('more hub requests per minute from one address than allowed is 429 with Retry-After', async () => {
    const limited = await startHubProcess({
      distDir: inject('fixtureDist'),
      caFile: tls.caFile,
      env: { WEBSUB_RATE_LIMIT_PER_MINUTE: '3' },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push(
          (await limited.subscribe({ 'hub.mode': 'publish', 'hub.url': topic })).status,
        );
      expect(statuses).toEqual([202, 202, 202, 429]);
      const refused = await limited.subscribe({ 'hub.mode': 'publish', 'hub.url': topic });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.stop();
    }
  });

  test('more than 10 requests a minute for one callback is 429', async () => {
    const callback = subscriber.callback('/chatty');
    const statuses = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        (
          await hub.subscribe({
            'hub.callback': callback,
            'hub.mode': 'subscribe',
            'hub.topic': topic,
          })
        ).status,
      );
    expect(statuses.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  test('a callback host at its subscription cap is refused with 403', async () => {
    const capped = await startHubProcess({
      distDir: inject('fixtureDist'),
      caFile: tls.caFile,
      env: { WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '1' },
    });
    try {
      await capped.subscribe({
        'hub.callback': subscriber.callback('/cap-1'),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
      });
      await subscriber.waitFor('/cap-1', 'GET', 1);
      await expect
        .poll(async () => (await capped.rows('SELECT * FROM subscriptions')).length)
        .toBe(1);
      const second = await capped.subscribe({
        'hub.callback': subscriber.callback('/cap-2'),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
      });
      expect(second.status).toBe(403);
      // Renewing the existing subscription is still allowed.
      const renewal = await capped.subscribe({
        'hub.callback': subscriber.callback('/cap-1'),
        'hub.mode': 'subscribe',
        'hub.topic': topic,
      });
      expect(renewal.status).toBe(202);
    } finally {
      await capped.stop();
    }
  });
});
