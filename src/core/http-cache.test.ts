import { describe, expect, test } from 'vitest';
import { computeEtag, isNotModified } from './http-cache.ts';

const etag = computeEtag('body');
const modified = new Date('2024-05-01T10:00:00Z');

describe('computeEtag', () => {
  test('is a strong, quoted tag that depends only on the bytes', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(computeEtag(Buffer.from('body'))).toBe(etag);
    expect(computeEtag('body!')).not.toBe(etag);
  });
});

describe('isNotModified', () => {
  test('matches the exact tag', () => {
    expect(isNotModified({ ifNoneMatch: etag }, etag)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"other"' }, etag)).toBe(false);
  });
  test('uses weak comparison: W/ prefixes are ignored', () => {
    expect(isNotModified({ ifNoneMatch: `W/${etag}` }, etag)).toBe(true);
  });
  test('matches any tag in a list', () => {
    expect(isNotModified({ ifNoneMatch: `"a", W/"b" ,${etag}` }, etag)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"a", "b"' }, etag)).toBe(false);
  });
  test('* matches any current representation', () => {
    expect(isNotModified({ ifNoneMatch: '*' }, etag)).toBe(true);
  });
  test('If-Modified-Since matches at one-second resolution', () => {
    expect(isNotModified({ ifModifiedSince: modified.toUTCString() }, etag, modified)).toBe(true);
    expect(
      isNotModified({ ifModifiedSince: new Date('2024-06-01').toUTCString() }, etag, modified),
    ).toBe(true);
    expect(
      isNotModified({ ifModifiedSince: new Date('2024-04-30').toUTCString() }, etag, modified),
    ).toBe(false);
  });
  test('If-None-Match wins over If-Modified-Since', () => {
    expect(
      isNotModified(
        { ifNoneMatch: '"other"', ifModifiedSince: modified.toUTCString() },
        etag,
        modified,
      ),
    ).toBe(false);
    expect(
      isNotModified(
        { ifNoneMatch: etag, ifModifiedSince: 'Thu, 01 Jan 1970 00:00:00 GMT' },
        etag,
        modified,
      ),
    ).toBe(true);
  });
  test('an If-Modified-Since later than now is ignored, not taken as "nothing changed"', () => {
    const now = Date.parse('2024-06-01T00:00:00Z');
    const future = { ifModifiedSince: 'Fri, 01 Jan 2100 00:00:00 GMT' };
    expect(isNotModified(future, etag, modified, now)).toBe(false);
    expect(isNotModified(future, etag, modified)).toBe(false);
    // Up to the current second still counts.
    expect(
      isNotModified({ ifModifiedSince: new Date(now).toUTCString() }, etag, modified, now),
    ).toBe(true);
    expect(
      isNotModified({ ifModifiedSince: new Date(now + 1000).toUTCString() }, etag, modified, now),
    ).toBe(false);
  });
  test('an unparseable If-Modified-Since is ignored', () => {
    expect(isNotModified({ ifModifiedSince: 'yesterday-ish' }, etag, modified)).toBe(false);
  });
  test('no validators, no 304', () => {
    expect(isNotModified({}, etag, modified)).toBe(false);
  });
});
