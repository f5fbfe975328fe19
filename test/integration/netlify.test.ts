// netlify.toml must give the CDN copy of the site the same headers as the Node server, and proxy
// what cannot be static to the Node origin.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { PUBLISHED_PATHS } from '../../src/core/site.ts';
import {
  PATHS,
  cacheControlForPath,
  contentTypeForPath,
  isTopicPath,
  topicLinkHeader,
} from '../../src/core/site.ts';
import { CORS_HEADERS } from '../../src/http/respond.ts';
import { ROOT } from '../support/build-site.ts';

// The placeholders netlify.toml documents: the public site and the Node origin.
const SITE_URL = 'https://reviews.example.com';
const ORIGIN = 'https://origin.example.com';

interface NetlifyConfig {
  build: { publish: string; command: string };
  redirects: { from: string; to: string; status: number; force: boolean }[];
  headers: { for: string; values: Record<string, string> }[];
}

const config = parse(
  await readFile(path.join(ROOT, 'netlify.toml'), 'utf8'),
) as unknown as NetlifyConfig;

/** Netlify applies every matching rule; later, more specific rules override earlier ones. */
function headersFor(urlPath: string): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const rule of config.headers) {
    const matches = rule.for.endsWith('/*')
      ? urlPath.startsWith(rule.for.slice(0, -1))
      : rule.for === urlPath;
    if (matches)
      for (const [name, value] of Object.entries(rule.values)) merged[name.toLowerCase()] = value;
  }
  return merged;
}

test('publishes the static client build', () => {
  expect(config.build.publish).toBe('dist/client');
  expect(config.build.command).toBe('npm run build');
});

describe.each(PUBLISHED_PATHS)('%s', (urlPath) => {
  test('has the Node server content type, cache, CORS and Link headers', () => {
    const headers = headersFor(urlPath);
    expect(headers['content-type']).toBe(contentTypeForPath(urlPath));
    expect(headers['cache-control']).toBe(cacheControlForPath(urlPath));
    for (const [name, value] of Object.entries(CORS_HEADERS))
      expect(headers[name.toLowerCase()]).toBe(value);
    expect(headers.link).toBe(
      isTopicPath(urlPath) ? topicLinkHeader(SITE_URL, urlPath) : undefined,
    );
  });
});

test('fingerprinted assets are immutable, as on the Node server', () => {
  expect(headersFor('/_astro/index.abc123.css')['cache-control']).toBe(
    cacheControlForPath('/_astro/index.abc123.css'),
  );
});

test.each([
  [`${PATHS.search.replace('/search', '')}/*`, `${ORIGIN}/api/reviews/:splat`],
  [PATHS.mcp, `${ORIGIN}${PATHS.mcp}`],
  [PATHS.hub, `${ORIGIN}${PATHS.hub}`],
])('proxies %s to the Node origin', (from, to) => {
  expect(config.redirects).toContainEqual({ from, to, status: 200, force: true });
});
