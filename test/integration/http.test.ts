// The real Express app over the built fixture site, on port 0: every endpoint, status code and
// header rule of docs/decisions.md (published records and HTTP).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MANIFEST_FILE } from '../../src/build/manifest.ts';
import { computeEtag } from '../../src/core/http-cache.ts';
import { SearchResultSchema, SinceResultSchema } from '../../src/core/search.ts';
import { FIXTURE_SITE_URL } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
const dist = inject('fixtureDist');

beforeAll(async () => {
  server = await startServer(dist);
});
afterAll(async () => {
  await server.close();
});

const get = (urlPath: string, init?: RequestInit) => fetch(`${server.url}${urlPath}`, init);
const fileBytes = (relative: string) => readFile(path.join(dist, 'client', relative));

describe('pre-rendered files', () => {
  test.each([
    ['/reviews.json', 'reviews.json', 'application/json; charset=utf-8'],
    ['/insights.json', 'insights.json', 'application/json; charset=utf-8'],
    ['/api/feed.json', 'api/feed.json', 'application/json; charset=utf-8'],
    ['/feed.xml', 'feed.xml', 'application/atom+xml; charset=utf-8'],
    ['/openapi.json', 'openapi.json', 'application/json; charset=utf-8'],
    ['/llms.txt', 'llms.txt', 'text/plain; charset=utf-8'],
    ['/', 'index.html', 'text/html; charset=utf-8'],
    [
      '/reviews/2024-05-01-new-roof/',
      'reviews/2024-05-01-new-roof/index.html',
      'text/html; charset=utf-8',
    ],
  ])(
    'GET %s serves the built bytes with exact type, content-hash ETag and cache headers',
    async (urlPath, file, type) => {
      const response = await get(urlPath);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(bytes.equals(await fileBytes(file))).toBe(true);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('etag')).toBe(computeEtag(bytes));
      expect(response.headers.get('last-modified')).toBe(server.site.lastModified.toUTCString());
      expect(response.headers.get('cache-control')).toBe(
        'public, max-age=60, stale-while-revalidate=300',
      );
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe(
        'ETag, Link, Mcp-Session-Id',
      );
    },
  );

  test.each([
    [
      '/feed.xml',
      `<${FIXTURE_SITE_URL}/api/websub/hub>; rel="hub", <${FIXTURE_SITE_URL}/feed.xml>; rel="self"`,
    ],
    [
      '/api/feed.json',
      `<${FIXTURE_SITE_URL}/api/websub/hub>; rel="hub", <${FIXTURE_SITE_URL}/api/feed.json>; rel="self"`,
    ],
    [
      '/reviews.json',
      `<${FIXTURE_SITE_URL}/api/websub/hub>; rel="hub", <${FIXTURE_SITE_URL}/reviews.json>; rel="self"`,
    ],
  ])('topic %s sends one Link header with hub and self on GET and HEAD', async (urlPath, link) => {
    expect((await get(urlPath)).headers.get('link')).toBe(link);
    expect((await get(urlPath, { method: 'HEAD' })).headers.get('link')).toBe(link);
  });

  test('non-topics send no Link header', async () => {
    expect((await get('/insights.json')).headers.get('link')).toBeNull();
  });

  test('a review page without the trailing slash redirects to its canonical url', async () => {
    const response = await get('/reviews/2024-05-01-new-roof', { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/reviews/2024-05-01-new-roof/');
  });
});

describe('conditional requests', () => {
  const paths = [
    '/reviews.json',
    '/feed.xml',
    '/api/reviews/search?rating=5',
    '/api/reviews/since/2023-01-01',
    '/',
  ];

  test.each(paths)(
    '%s: matching If-None-Match gives 304 with validators, cache, Link and CORS, no body',
    async (urlPath) => {
      const first = await get(urlPath);
      const etag = first.headers.get('etag')!;
      const response = await get(urlPath, { headers: { 'If-None-Match': etag } });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
      expect(response.headers.get('link')).toBe(first.headers.get('link'));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  test('weak comparison, lists and * all match', async () => {
    const etag = (await get('/reviews.json')).headers.get('etag')!;
    for (const header of [`W/${etag}`, `"nope", ${etag}`, '*']) {
      expect(
        (await get('/reviews.json', { headers: { 'If-None-Match': header } })).status,
        header,
      ).toBe(304);
    }
    expect((await get('/reviews.json', { headers: { 'If-None-Match': '"nope"' } })).status).toBe(
      200,
    );
  });

  test('If-Modified-Since at or after Last-Modified gives 304, before gives 200', async () => {
    const lastModified = (await get('/insights.json')).headers.get('last-modified')!;
    expect(
      (await get('/insights.json', { headers: { 'If-Modified-Since': lastModified } })).status,
    ).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect(
      (await get('/insights.json', { headers: { 'If-Modified-Since': earlier } })).status,
    ).toBe(200);
    // A date in the future is invalid, so ignored: the client gets the body, not a 304.
    const future = await get('/insights.json', {
      headers: { 'If-Modified-Since': 'Fri, 01 Jan 2100 00:00:00 GMT' },
    });
    expect(future.status).toBe(200);
    expect((await future.text()).length).toBeGreaterThan(0);
  });

  test('If-None-Match wins over If-Modified-Since', async () => {
    const lastModified = (await get('/insights.json')).headers.get('last-modified')!;
    const response = await get('/insights.json', {
      headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': lastModified },
    });
    expect(response.status).toBe(200);
  });

  test('a failed If-Match is 412 (strong comparison); *, a listed current tag or none is answered', async () => {
    const etag = (await get('/reviews.json')).headers.get('etag')!;
    for (const header of ['"nope"', `W/${etag}`]) {
      const response = await get('/reviews.json', { headers: { 'If-Match': header } });
      expect(response.status, header).toBe(412);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({ error: 'precondition_failed' });
    }
    for (const header of ['*', `"nope", ${etag}`])
      expect((await get('/reviews.json', { headers: { 'If-Match': header } })).status).toBe(200);
    const search = await get('/api/reviews/search?rating=5&limit=1', {
      headers: { 'If-Match': '"nope"' },
    });
    expect(search.status).toBe(412);
  });

  test('If-Unmodified-Since before Last-Modified is 412; at it, or with If-Match holding, 200', async () => {
    const first = await get('/insights.json');
    const lastModified = first.headers.get('last-modified')!;
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const failed = await get('/insights.json', { headers: { 'If-Unmodified-Since': earlier } });
    expect(failed.status).toBe(412);
    expect(
      (await get('/insights.json', { headers: { 'If-Unmodified-Since': lastModified } })).status,
    ).toBe(200);
    expect(
      (
        await get('/insights.json', {
          headers: { 'If-Unmodified-Since': earlier, 'If-Match': first.headers.get('etag')! },
        })
      ).status,
    ).toBe(200);
    expect(
      (await get('/insights.json', { headers: { 'If-Unmodified-Since': 'not a date' } })).status,
    ).toBe(200);
  });

  test('the since endpoint answers 304 to If-Modified-Since too', async () => {
    const first = await get('/api/reviews/since/2020-01-01');
    const response = await get('/api/reviews/since/2020-01-01', {
      headers: { 'If-Modified-Since': first.headers.get('last-modified')! },
    });
    expect(response.status).toBe(304);
  });
});

describe('HEAD and OPTIONS', () => {
  test.each([
    '/reviews.json',
    '/api/reviews/search?limit=2',
    '/api/reviews/since/2024-01-01',
    '/llms.txt',
  ])('HEAD %s has GET headers and no body', async (urlPath) => {
    const full = await get(urlPath);
    const head = await get(urlPath, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of [
      'etag',
      'content-type',
      'content-length',
      'last-modified',
      'cache-control',
    ]) {
      expect(head.headers.get(name), name).toBe(full.headers.get(name));
    }
  });

  test('CORS preflight is 204 with methods and headers', async () => {
    const response = await get('/api/reviews/search', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toContain('If-None-Match');
  });

  test("the hub's preflight allows POST, the only method it answers", async () => {
    const response = await get('/api/websub/hub', {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });
});

describe('search', () => {
  test('the ETag follows the dataset and the canonical parameters: same search, same tag; 304 on a match', async () => {
    const first = await get('/api/reviews/search?rating=5&limit=2');
    const reordered = await get('/api/reviews/search?limit=2&rating=5.0');
    const other = await get('/api/reviews/search?rating=5&limit=3');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(reordered.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await reordered.arrayBuffer())).toEqual(
      Buffer.from(await first.arrayBuffer()),
    );
    expect(other.headers.get('etag')).not.toBe(etag);
    const datasetEtag = (await get('/reviews.json')).headers.get('etag');
    expect(etag).toBe(
      computeEtag(`${datasetEtag} search:${JSON.stringify({ rating: 5, limit: 2 })}`),
    );
    const again = await get('/api/reviews/search?rating=5&limit=2', {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  test('answers {total, count, limit, reviews} newest first', async () => {
    const response = await get('/api/reviews/search?limit=3');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = SearchResultSchema.parse(await response.json());
    expect(body.total).toBe(6);
    expect(body.count).toBe(3);
    expect(body.limit).toBe(3);
    expect(body.reviews.map((review) => review.id)).toEqual([
      '2024-05-01-new-roof',
      '2024-05-01-same-day',
      '2024-03-10-leak-came-back',
    ]);
  });

  test('combines filters over the built data', async () => {
    const body = SearchResultSchema.parse(
      await (await get('/api/reviews/search?mentions_technician=MIKEY&query=cafe')).json(),
    );
    expect(body.reviews.map((review) => review.id)).toEqual(['2023-11-02-gutters-cafe']);
  });

  test('the same query gives the same bytes and ETag', async () => {
    const a = await get('/api/reviews/search?min_rating=3&limit=2');
    const b = await get('/api/reviews/search?limit=2&min_rating=3');
    expect(await a.text()).toBe(await b.text());
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
  });

  test.each([
    ['rating=6', 'rating'],
    ['rating=abc', 'rating'],
    ['min_rating=0', 'min_rating'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['since=2023-02-30', 'since'],
    ['until=not-a-date', 'until'],
    ['since=2024-02-01&until=2024-01-01', 'since'],
    ['foo=bar', 'foo'],
    ['rating=5&rating=4', 'rating'],
    ['mentions_service=chimneys', 'mentions_service'],
    ['query=', 'query'],
  ])('400 with issues for %s', async (qs, pathName) => {
    const response = await get(`/api/reviews/search?${qs}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as {
      error: string;
      message: string;
      issues: { path: unknown[]; code: string; message: string }[];
    };
    expect(body.error).toBe('invalid_request');
    expect(body.issues).toContainEqual(expect.objectContaining({ path: [pathName] }));
    for (const issue of body.issues)
      expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
  });

  test('percent-encoding and + in the query string are decoded', async () => {
    const body = SearchResultSchema.parse(
      await (await get('/api/reviews/search?query=caf%C3%A9&mentions_technician=big+mike')).json(),
    );
    expect(body.total).toBe(1);
  });

  test('malformed percent-encoding is a 400 or a plain miss, never a 500', async () => {
    const response = await get('/api/reviews/search?query=%E0%A4%A');
    expect([200, 400]).toContain(response.status);
  });
});

describe('since', () => {
  test('answers {since, count, reviews} dated on or after the date', async () => {
    const response = await get('/api/reviews/since/2024-03-10');
    expect(response.status).toBe(200);
    const body = SinceResultSchema.parse(await response.json());
    expect(body).toMatchObject({ since: '2024-03-10', count: 3 });
    expect(body.reviews.every((review) => review.date >= '2024-03-10')).toBe(true);
  });

  test.each(['2024-02-30', '2024-1-1', 'yesterday', '2024-01-01T00:00:00Z', '%E0'])(
    '400 for the date %s',
    async (date) => {
      const response = await get(`/api/reviews/since/${date}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { issues: unknown[] };
      expect(body.issues.length).toBeGreaterThan(0);
    },
  );
});

describe('query strings', () => {
  test.each([
    '/api/reviews/search?query=%E0%A4%A',
    '/api/reviews/search?query=100%',
    '/api/reviews/search?query=%FF',
    '/api/reviews/since/2024-01-01?x=%zz',
  ])('malformed percent-encoding is a 400, as in a path: %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      issues: [{ code: 'invalid_encoding', message: expect.stringContaining('%25') }],
    });
  });

  test('the since endpoint takes no parameters: each one given is named in a 400', async () => {
    const response = await get('/api/reviews/since/2024-01-01?limit=1&x=1&x=2');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: { path: string[] }[] };
    expect(body.issues.map((issue) => issue.path)).toEqual([['limit'], ['x']]);
  });

  test('a value failing two checks in the same words is listed once', async () => {
    const response = await get('/api/reviews/search?limit=99999999999999999999999');
    const body = (await response.json()) as { issues: unknown[] };
    expect(body.issues).toHaveLength(new Set(body.issues.map((i) => JSON.stringify(i))).size);
  });
});

describe('errors', () => {
  test('unknown /api paths are 404 JSON', async () => {
    for (const urlPath of [
      '/api/nope',
      '/api/reviews',
      '/api/reviews/since',
      '/api/reviews/since/2024-01-01/extra',
      // One address per answer: no second spelling of a documented path.
      '/api/reviews/search/',
      '/api/reviews/since/2024-01-01/',
      '/api/reviews/SINCE/2024-01-01',
      '/api/Reviews/search',
    ]) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(((await response.json()) as { error: string }).error).toBe('not_found');
    }
  });

  test('unknown pages are 404', async () => {
    expect((await get('/no-such-page')).status).toBe(404);
  });

  test.each([
    ['POST', '/reviews.json'],
    ['PUT', '/api/reviews/search'],
    ['DELETE', '/api/reviews/since/2024-01-01'],
    ['PATCH', '/'],
    ['POST', '/api/feed.json'],
  ])('%s %s is 405 with Allow', async (method, urlPath) => {
    const response = await get(urlPath, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(((await response.json()) as { error: string }).error).toBe('method_not_allowed');
  });

  test('a body over 64 KiB is 413', async () => {
    const response = await get('/reviews.json', { method: 'POST', body: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('payload_too_large');
  });

  test('an Authorization header is ignored', async () => {
    expect(
      (await get('/reviews.json', { headers: { Authorization: 'Bearer nonsense' } })).status,
    ).toBe(200);
  });
});

describe('not found', () => {
  test('a browser gets the 404 page as HTML with status 404', async () => {
    const response = await get('/no-such-page', {
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<html');
  });

  test('an API client gets the JSON error', async () => {
    const response = await get('/no-such-page', { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe('not_found');
  });
});

describe('fast path', () => {
  const comparable = (response: Response) =>
    [...response.headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
      .sort();

  test('a search answered from its parts, then cached, then before Express: the same status, headers and body each time', async () => {
    const url = '/api/reviews/search?min_rating=2&query=roof&limit=3';
    const first = await get(url);
    const second = await get(url);
    const third = await get(url);
    const body = await first.text();
    for (const again of [second, third]) {
      expect(again.status).toBe(first.status);
      expect(comparable(again)).toEqual(comparable(first));
      expect(await again.text()).toBe(body);
    }
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    const conditional = await get(url, {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(conditional.status).toBe(304);
  });

  test('an in-memory dataset gets the same headers through Express (encoded path) and the fast path', async () => {
    const fast = await get('/insights.json');
    const viaExpress = await get('/insights%2Ejson');
    expect(viaExpress.status).toBe(200);
    expect(comparable(viaExpress)).toEqual(comparable(fast));
  });

  test('a GET with a body is left to Express', async () => {
    const response = await get('/reviews.json', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
  });
});

test('content dated after the server start (a clock ahead, a future file time) is served as last modified at the start', async () => {
  const copy = await mkdtemp(path.join(tmpdir(), 'future-dist-'));
  try {
    await cp(dist, copy, { recursive: true });
    const manifestFile = path.join(copy, MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
    await writeFile(
      manifestFile,
      JSON.stringify({ ...manifest, last_modified: 'Fri, 01 Jan 2100 00:00:00 GMT' }),
    );
    const before = Math.floor(Date.now() / 1000) * 1000;
    const future = await startServer(copy);
    try {
      const response = await fetch(`${future.url}/reviews.json`);
      const lastModified = Date.parse(response.headers.get('last-modified')!);
      expect(lastModified).toBeGreaterThanOrEqual(before);
      expect(lastModified).toBeLessThanOrEqual(Date.parse(response.headers.get('date')!));
      const again = await fetch(`${future.url}/reviews.json`, {
        headers: { 'If-Modified-Since': response.headers.get('last-modified')! },
      });
      expect(again.status).toBe(304);
    } finally {
      await future.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});
