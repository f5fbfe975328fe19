import { expect, test } from 'vitest';
import { makeReview } from '../../test/support/builders.ts';
import { listingPage, listingPageCount, listingPagePath, navigationPages } from './listing.ts';
import { renderRobotsTxt } from './robots-txt.ts';
import { renderSitemaps, sitemapEntries } from './sitemap.ts';

const reviews = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const day = String(28 - (i % 28)).padStart(2, '0');
    const date = `${2030 - Math.floor(i / 28)}-01-${day}`;
    return makeReview({ id: `r-${String(i).padStart(4, '0')}`, date, updated: date });
  });

test('every review is on exactly one listing page, in order, with prev/next between pages', () => {
  for (const n of [0, 1, 25, 26, 151, 152]) {
    const all = reviews(n);
    const count = listingPageCount(n, 25);
    const seen: string[] = [];
    for (let page = 1; page <= count; page += 1) {
      const listing = listingPage(all, page, 25);
      seen.push(...listing.reviews.map((review) => review.id));
      expect(listing.prevPath).toBe(page === 1 ? null : listingPagePath(page - 1));
      expect(listing.nextPath).toBe(page === count ? null : listingPagePath(page + 1));
    }
    expect(seen).toEqual(all.map((review) => review.id));
  }
  expect(() => listingPage(reviews(30), 3, 25)).toThrow(RangeError);
});

test('the navigation shows a bounded set of page numbers, whatever the page count', () => {
  expect(navigationPages(1, 1)).toEqual([1]);
  expect(navigationPages(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(navigationPages(2000, 4000)).toEqual([1, null, 1998, 1999, 2000, 2001, 2002, null, 4000]);
  for (let page = 1; page <= 4000; page += 397)
    expect(navigationPages(page, 4000).length).toBeLessThanOrEqual(9);
});

test('the sitemap lists home, listing pages and review pages once each, with lastmod', () => {
  const all = reviews(60);
  const entries = sitemapEntries(all, 25);
  expect(entries.map((entry) => entry.path)).toEqual([
    '/',
    '/reviews/',
    '/reviews/page/2/',
    '/reviews/page/3/',
    ...all.map((review) => `/reviews/${review.id}/`),
  ]);
  expect(entries.every((entry) => /^\d{4}-\d{2}-\d{2}$/.test(entry.lastmod ?? ''))).toBe(true);
  const files = renderSitemaps({ siteUrl: 'https://r.example', reviews: all, pageSize: 25 });
  expect([...files.keys()]).toEqual(['/sitemap.xml']);
  expect(files.get('/sitemap.xml')!.match(/<url>/g)).toHaveLength(64);
});

test('past the per-file limit the sitemap becomes an index over parts that hold every URL', () => {
  const all = reviews(60);
  const files = renderSitemaps({
    siteUrl: 'https://r.example',
    reviews: all,
    pageSize: 25,
    limits: { maxUrls: 30, maxBytes: 52_428_800 },
  });
  expect([...files.keys()]).toEqual([
    '/sitemap.xml',
    '/sitemap-1.xml',
    '/sitemap-2.xml',
    '/sitemap-3.xml',
  ]);
  expect(files.get('/sitemap.xml')).toContain('<sitemapindex');
  const urls = [...files.entries()]
    .filter(([key]) => key !== '/sitemap.xml')
    .flatMap(([, xml]) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
  expect(urls).toHaveLength(64);
  expect(new Set(urls).size).toBe(64);
});

test('robots.txt announces the sitemap by its absolute URL and keeps crawlers out of query endpoints', () => {
  const text = renderRobotsTxt('https://r.example');
  expect(text).toContain('Sitemap: https://r.example/sitemap.xml');
  expect(text).toContain('Disallow: /api/reviews/search');
});

test('robots.txt keeps crawlers off the endpoints that answer POST alone', () => {
  const lines = renderRobotsTxt('https://r.example').split('\n');
  expect(lines).toContain('Disallow: /mcp');
  expect(lines).toContain('Disallow: /api/websub/hub');
});
