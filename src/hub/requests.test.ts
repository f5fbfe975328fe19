import { describe, expect, test } from 'vitest';
import { HubRequestError, decodeUnreserved, parseHubRequest } from './requests.ts';

const site = 'https://reviews.example.com';
const lease = { defaultSeconds: 864000, minSeconds: 3600, maxSeconds: 864000 };
const parse = (fields: [string, string][]) =>
  parseHubRequest(new URLSearchParams(fields), site, lease);
const base: [string, string][] = [
  ['hub.callback', 'https://sub.example/cb?x=1#frag'],
  ['hub.mode', 'subscribe'],
  ['hub.topic', `${site}/feed.xml`],
];

function statusOf(fields: [string, string][]): number {
  try {
    parse(fields);
  } catch (error) {
    if (error instanceof HubRequestError) return error.status;
    throw error;
  }
  return 0;
}

describe('parseHubRequest', () => {
  test('a subscribe gets the default lease, keeps the callback query and drops its fragment', () => {
    const request = parse(base);
    expect(request).toMatchObject({
      kind: 'intent',
      mode: 'subscribe',
      topic: `${site}/feed.xml`,
      leaseSeconds: 864000,
      secret: null,
    });
    if (request.kind === 'intent') expect(request.callback.href).toBe('https://sub.example/cb?x=1');
  });
  test('a callback has one spelling: escaped unreserved characters and an empty query are dropped', () => {
    const callbackOf = (callback: string) => {
      const request = parse([['hub.callback', callback], ...base.slice(1)]);
      return request.kind === 'intent' ? request.callback.href : undefined;
    };
    for (const spelling of [
      'https://sub.example/eq1',
      'https://sub.example/eq1?',
      'https://sub.example/%65q%31',
    ])
      expect(callbackOf(spelling)).toBe('https://sub.example/eq1');
    expect(callbackOf('https://sub.example/a%2Fb?x=%41&y=%2F')).toBe(
      'https://sub.example/a%2Fb?x=A&y=%2F',
    );
  });
  test('leases are clamped to the bounds', () => {
    expect(parse([...base, ['hub.lease_seconds', '60']])).toMatchObject({ leaseSeconds: 3600 });
    expect(parse([...base, ['hub.lease_seconds', '86400']])).toMatchObject({ leaseSeconds: 86400 });
    expect(parse([...base, ['hub.lease_seconds', '9'.repeat(30)]])).toMatchObject({
      leaseSeconds: 864000,
    });
  });
  test.each(['', '0', '00', '-1', '1.5', '1e5', ' 60', '0x10'])('lease %j is 400', (value) => {
    expect(statusOf([...base, ['hub.lease_seconds', value]])).toBe(400);
  });
  test('the secret limit counts bytes, not characters', () => {
    expect(statusOf([...base, ['hub.secret', 'a'.repeat(199)]])).toBe(0);
    expect(statusOf([...base, ['hub.secret', 'a'.repeat(200)]])).toBe(400);
    expect(statusOf([...base, ['hub.secret', '€'.repeat(67)]])).toBe(400);
    expect(statusOf([...base, ['hub.secret', '€'.repeat(66)]])).toBe(0);
  });
  test.each([
    [
      'http callback',
      [
        ['hub.callback', 'http://sub.example/cb'],
        ['hub.mode', 'subscribe'],
        ['hub.topic', `${site}/feed.xml`],
      ],
    ],
    [
      'callback with credentials',
      [
        ['hub.callback', 'https://u:p@sub.example/cb'],
        ['hub.mode', 'subscribe'],
        ['hub.topic', `${site}/feed.xml`],
      ],
    ],
    ['two callbacks', [...base, ['hub.callback', 'https://other.example/']]],
    ['two modes', [...base, ['hub.mode', 'unsubscribe']]],
    [
      'unknown topic',
      [
        ['hub.callback', 'https://sub.example/cb'],
        ['hub.mode', 'subscribe'],
        ['hub.topic', `${site}/feed.rss`],
      ],
    ],
    [
      'topic with an encoded slash',
      [
        ['hub.callback', 'https://sub.example/cb'],
        ['hub.mode', 'subscribe'],
        ['hub.topic', `${site}%2Ffeed.xml`],
      ],
    ],
    [
      'mode missing',
      [
        ['hub.callback', 'https://sub.example/cb'],
        ['hub.topic', `${site}/feed.xml`],
      ],
    ],
  ] as [string, [string, string][]][])('%s is 400', (_name, fields) => {
    expect(statusOf(fields)).toBe(400);
  });
  test('publish takes hub.url and hub.topic, one or more, deduplicated', () => {
    expect(
      parse([
        ['hub.mode', 'publish'],
        ['hub.url', `${site}/feed.xml`],
        ['hub.topic', `${site}/reviews.json`],
        ['hub.topic', `${site}/%66eed.xml`],
      ]),
    ).toEqual({ kind: 'publish', topics: [`${site}/feed.xml`, `${site}/reviews.json`] });
  });
  test('unknown extra parameters are ignored', () => {
    expect(parse([...base, ['hub.extra', 'x'], ['foo', 'bar']])).toMatchObject({ kind: 'intent' });
  });
});

test('decodeUnreserved decodes only unreserved characters', () => {
  expect(decodeUnreserved('%41%7e%2D%2e%5F%7E')).toBe('A~-._~');
  expect(decodeUnreserved('%2F%3A%25%20')).toBe('%2F%3A%25%20');
});
