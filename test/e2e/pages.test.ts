// Every review reachable, on the real build of the sample business (152 reviews): a crawl from `/`
// over links only, the sitemap, robots.txt, the favicon, Open Graph tags, the heading levels of the
// home and listing pages, and the Atom feed as two independent feed parsers read it. The listing
// page is also rendered in Chromium, with no console errors (a missing favicon was one) and a
// screenshot under test-results/screenshots.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { extractFromXml } from '@extractus/feed-extractor';
import { chromium } from 'playwright-core';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, buildSite, distPath } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const SITE_URL = 'https://reviews.pages.example';
const CHROMIUM_PATH = '/usr/bin/chromium';
let server: RunningServer;
let reviewPaths: string[];

beforeAll(async () => {
  const dist = distPath('pages-sample');
  await buildSite({ contentDir: path.join(ROOT, 'content'), distDir: dist, siteUrl: SITE_URL });
  server = await startServer(dist, { siteUrl: SITE_URL });
  reviewPaths = server.site
    .readDataset()
    .reviews.map((review) => new URL(review.url).pathname)
    .sort();
}, 180_000);
afterAll(async () => {
  await server?.close();
});

async function html(pathname: string): Promise<string> {
  const response = await fetch(`${server.url}${pathname}`);
  expect(response.status, pathname).toBe(200);
  return response.text();
}

/** Same-site links of a page: <a href> and <link rel="prev|next">, as paths. */
function linksOf(page: string): string[] {
  const links: string[] = [];
  for (const match of page.matchAll(/<(?:a|link)\b[^>]*\bhref="([^"]+)"/g)) {
    const url = new URL(match[1]!.replace(/&amp;/g, '&'), `${SITE_URL}/`);
    if (url.origin === SITE_URL) links.push(url.pathname);
  }
  return links;
}

test('a crawl from / over links alone reaches every review page', async () => {
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  while (queue.length > 0) {
    const current = queue.shift()!;
    const page = await html(current);
    for (const link of linksOf(page)) {
      const isPage = link === '/' || link.endsWith('/');
      if (isPage && !seen.has(link)) {
        seen.add(link);
        queue.push(link);
      }
    }
  }
  const reached = [...seen].filter((p) => /^\/reviews\/[^/]+\/$/.test(p) && p !== '/reviews/page/');
  expect(reviewPaths.length).toBe(152);
  expect(reached.sort()).toEqual(reviewPaths);
});

describe('the listing', () => {
  test('pages hold every review once, newest first, with rel prev/next', async () => {
    const ids: string[] = [];
    let pathname: string | null = '/reviews/';
    let previous: string | null = null;
    let pages = 0;
    while (pathname) {
      const page = await html(pathname);
      pages += 1;
      ids.push(...[...page.matchAll(/data-review-id="([^"]+)"/g)].map((m) => m[1]!));
      const prev = /<link rel="prev" href="([^"]+)"/.exec(page)?.[1];
      expect(prev ? new URL(prev).pathname : null).toBe(previous);
      previous = pathname;
      const next = /<link rel="next" href="([^"]+)"/.exec(page)?.[1];
      pathname = next ? new URL(next).pathname : null;
    }
    expect(pages).toBe(Math.ceil(152 / 25));
    const newestFirst = server.site.readDataset().reviews.map((review) => review.id);
    expect(ids).toEqual(newestFirst);
  });

  test('on every listing page the card headings sit one level under the h1, and replies are no landmarks', async () => {
    const count = Math.ceil(152 / 25);
    const listing = [
      '/reviews/',
      ...Array.from({ length: count - 1 }, (_, i) => `/reviews/page/${i + 2}/`),
    ];
    let replies = 0;
    for (const pathname of ['/', ...listing]) {
      const page = await html(pathname);
      const levels = [...page.matchAll(/<h([1-6])\b/g)].map((match) => Number(match[1]));
      expect(levels[0], pathname).toBe(1);
      const skips = levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1);
      expect(skips, `${pathname}: heading levels ${levels.join(' ')}`).toEqual([]);
      expect(page.match(/<aside\b[^>]*owner-reply/g) ?? [], pathname).toEqual([]);
      replies += [...page.matchAll(/class="owner-reply/g)].length;
    }
    expect(replies).toBeGreaterThan(1);
  });

  test('every link on the home page answers a GET; the POST-only endpoints are shown as text', async () => {
    const home = await html('/');
    const links = [
      ...new Set(
        [...home.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)]
          .map((match) => new URL(match[1]!.replace(/&amp;/g, '&'), `${SITE_URL}/`))
          .filter((url) => url.origin === SITE_URL)
          .map((url) => url.pathname + url.search),
      ),
    ];
    expect(links).toContain('/api/reviews/search?query=leak&min_rating=4&limit=5');
    for (const link of links) {
      const response = await fetch(`${server.url}${link}`);
      expect(response.status, link).toBe(200);
    }
    expect(links).not.toContain('/mcp');
    expect(links).not.toContain('/api/websub/hub');
    expect(home).toContain('<code class="address"');
    expect(home).toMatch(/<code class="address"[^>]*>\/mcp<\/code>/);
    expect(home).toMatch(/<code class="address"[^>]*>\/api\/websub\/hub<\/code>/);
  });

  test('the home page links to the listing', async () => {
    expect(linksOf(await html('/'))).toContain('/reviews/');
  });
});

describe('for crawlers', () => {
  test('the sitemap lists the home page, every listing page and every review page with lastmod', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await response.text();
    const entries = [
      ...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod><\/url>/g),
    ];
    const paths = entries.map((entry) => new URL(entry[1]!).pathname);
    expect(paths[0]).toBe('/');
    expect(paths.filter((p) => p.startsWith('/reviews/page/') || p === '/reviews/')).toHaveLength(
      7,
    );
    expect(paths.filter((p) => reviewPaths.includes(p)).sort()).toEqual(reviewPaths);
    expect(xml.match(/<url>/g)).toHaveLength(entries.length);
  });

  test('robots.txt allows crawling and points to the sitemap', async () => {
    const text = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
  });

  test('the favicon is served and linked from every page', async () => {
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    for (const pathname of ['/', '/reviews/', reviewPaths[0]!])
      expect(await html(pathname)).toContain(
        '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
      );
  });

  test('home and review pages carry Open Graph and Twitter card tags', async () => {
    const home = await html('/');
    expect(home).toContain('<meta property="og:type" content="website">');
    expect(home).toContain(`<meta property="og:url" content="${SITE_URL}/">`);
    expect(home).toMatch(/<meta property="og:title" content="[^"]+">/);
    expect(home).toContain('<meta name="twitter:card" content="summary">');
    const review = await html(reviewPaths[0]!);
    expect(review).toContain('<meta property="og:type" content="article">');
    expect(review).toContain(`<meta property="og:url" content="${SITE_URL}${reviewPaths[0]}">`);
    expect(review).toMatch(/<meta property="og:description" content="\d of 5 stars from [^"]+">/);
  });

  test('an untitled review is not headed with its author right above the author', async () => {
    const untitled = server.site.readDataset().reviews.find((review) => review.title === null)!;
    const page = await html(new URL(untitled.url).pathname);
    const heading = /<h1[^>]*>\s*([^<]+?)\s*<\/h1>/.exec(page)![1]!;
    expect(heading).toBe(`${untitled.rating}-star review`);
  });

  test('review text, headings and names take their direction from their own letters', async () => {
    // A review in Arabic or Hebrew then reads right to left on a left-to-right page.
    const review = server.site
      .readDataset()
      .reviews.find((r) => r.author.location !== null && /^[\w .-]+$/.test(r.author.name))!;
    const page = await html(new URL(review.url).pathname);
    const body = /<div class="review-text"[^>]*>([\s\S]*?)<\/div>/.exec(page)![1]!;
    const paragraphs = [...body.matchAll(/<p\b([^>]*)>/g)].map((m) => m[1]!);
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const attributes of paragraphs) expect(attributes).toContain('dir="auto"');
    expect(page).toMatch(/<h1 id="review-title"[^>]*dir="auto"/);
    expect(page).toMatch(new RegExp(`<strong dir="auto"[^>]*>${review.author.name}</strong>`));
    const listing = await html('/reviews/');
    const cards = [...listing.matchAll(/<h2 [^>]*class="title"[^>]*>/g)].map((m) => m[0]);
    expect(cards.length).toBeGreaterThan(0);
    for (const heading of cards) expect(heading).toContain('dir="auto"');
    expect(listing).toMatch(/<span class="author" dir="auto"/);
  });

  test('certification dates read as dates, not ISO strings', async () => {
    const home = await html('/');
    expect(home).not.toMatch(/since \d{4}-\d{2}-\d{2}/);
  });
});

describe('the Atom feed in feed readers', () => {
  const reviews = () => server.site.readDataset().reviews.slice(0, 50);

  test('rss-parser shows plain titles and the review text in the summary', async () => {
    const xml = await (await fetch(`${server.url}/feed.xml`)).text();
    const feed = await new Parser().parseString(xml);
    expect(feed.items).toHaveLength(50);
    for (const [index, item] of feed.items.entries()) {
      const review = reviews()[index]!;
      expect(item.title).not.toMatch(/&(?:quot|amp|lt|gt|#\d+);/);
      expect(item.title).toBe(
        review.title ?? `${review.rating}-star review by ${review.author.name}`,
      );
      expect(item.contentSnippet ?? item.summary ?? '').toContain(
        review.text.split('\n')[0]!.slice(0, 40),
      );
    }
  });

  test('feed-extractor shows the review text as each entry description', async () => {
    const xml = await (await fetch(`${server.url}/feed.xml`)).text();
    const feed = extractFromXml(xml, { descriptionMaxLen: 0 });
    expect(feed.entries).toHaveLength(50);
    for (const [index, entry] of (feed.entries ?? []).entries()) {
      const review = reviews()[index]!;
      expect(entry.title).not.toMatch(/&(?:quot|amp|lt|gt|#\d+);/);
      expect(entry.description).toContain(review.text.split(/\s+/).slice(0, 6).join(' '));
    }
  });
});

test('the listing page renders in Chromium without console errors', async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.url}/reviews/page/2/`);
    expect(await page.locator('[data-review-id]').count()).toBe(25);
    const dir = path.join(ROOT, 'test-results/screenshots');
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, 'listing-page-2.png'), fullPage: false });
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
});
