// The HTML pages in headless Chromium (Debian's /usr/bin/chromium), served by the real app over
// the fixture build: content, the rating chart, escaping of hostile review text, the JSON-LD, the
// dark palette, and screenshots of the home and a review page under test-results/screenshots/.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { reviewHeading } from '../../src/core/feeds.ts';
import type { InsightsDataset } from '../../src/core/insights/dataset-schema.ts';
import type { Review, ReviewsDataset } from '../../src/core/review.ts';
import { ROOT } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT_DIR = path.join(ROOT, 'test-results/screenshots');
const HOME_REVIEW_COUNT = 20;
const HARD_TEXT_ID = '2022-07-04-hard-text';
const ACCENTED_ID = '2023-11-02-gutters-cafe';
const REPLY_ID = '2024-03-10-leak-came-back';

let server: RunningServer;
let browser: Browser;
let dataset: ReviewsDataset;

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install it with \`apt-get install -y chromium\`.`,
    );
  }
  server = await startServer(inject('fixtureDist'));
  dataset = server.site.readDataset();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function reviewById(id: string): Review {
  const review = dataset.reviews.find((candidate) => candidate.id === id);
  if (!review) throw new Error(`fixture review ${id} is not published`);
  return review;
}

interface OpenedPage {
  page: Page;
  /** Messages of every alert/confirm/prompt the page tried to show. */
  dialogs: string[];
  /** Uncaught script errors on the page. */
  errors: string[];
}

async function openPage(
  urlPath: string,
  options: { colorScheme?: 'light' | 'dark'; width?: number } = {},
): Promise<OpenedPage> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(`${server.url}${urlPath}`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return { page, dialogs, errors };
}

async function jsonLdOf(page: Page): Promise<unknown[]> {
  const blocks = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => script.textContent ?? ''));
  return blocks.map((block) => JSON.parse(block) as unknown);
}

describe('home page', () => {
  test('renders the business name and the 20 newest reviews, newest first', async () => {
    const { page } = await openPage('/');
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe(dataset.business.name);
      const newest = dataset.reviews.slice(0, HOME_REVIEW_COUNT);
      const shown = await page
        .locator('article[data-review-id]')
        .evaluateAll((articles) =>
          articles.map((article) => article.getAttribute('data-review-id')),
        );
      expect(shown).toEqual(newest.map((review) => review.id));
      const first = newest[0]!;
      const card = page.locator(`article[data-review-id="${first.id}"]`);
      await expect(card.locator('h3 a').getAttribute('href')).resolves.toBe(
        `/reviews/${first.id}/`,
      );
      await expect(card.locator('h3').textContent()).resolves.toContain(reviewHeading(first));
      await expect(card.locator('[role="img"]').getAttribute('aria-label')).resolves.toBe(
        `Rated ${first.rating} out of 5 stars`,
      );
      await expect(card.textContent()).resolves.toContain(first.text);
    } finally {
      await page.close();
    }
  });

  test('shows the rating chart with one bar per star, each as wide as its share', async () => {
    const { page } = await openPage('/');
    try {
      const chart = page.getByTestId('rating-chart');
      expect(await chart.isVisible()).toBe(true);
      const { distribution, review_count: total } = dataset.aggregate_rating;
      expect(total).toBeGreaterThan(0);
      for (const stars of [1, 2, 3, 4, 5] as const) {
        const bar = chart.getByTestId(`rating-bar-${stars}`);
        expect(await bar.count()).toBe(1);
        const barBox = await bar.boundingBox();
        const trackBox = await bar.locator('..').boundingBox();
        const count = distribution[`${stars}`];
        // The bar fills its track in proportion to the star's share of all reviews.
        expect(barBox?.width ?? 0).toBeCloseTo((trackBox!.width * count) / total, 0);
        const row = bar.locator('xpath=ancestor::li[1]');
        await expect(row.textContent()).resolves.toContain(
          `${stars} ${stars === 1 ? 'star' : 'stars'}: ${count} ${count === 1 ? 'review' : 'reviews'}`,
        );
      }
      expect(await chart.getByTestId(/^rating-bar-/).count()).toBe(5);
    } finally {
      await page.close();
    }
  });

  test("shows the aspect chart with bars as wide as each aspect's positive and negative share", async () => {
    const insights = JSON.parse(
      server.site.files.get('/insights.json')!.bytes!.toString('utf8'),
    ) as InsightsDataset;
    const mentioned = Object.entries(insights.aspects).filter(
      ([, stats]) => stats.review_count > 0,
    );
    expect(mentioned.length).toBeGreaterThan(0);
    const { page } = await openPage('/');
    try {
      const chart = page.getByTestId('aspect-chart');
      expect(await chart.isVisible()).toBe(true);
      expect(await chart.locator('li').count()).toBe(mentioned.length);
      for (const [id, stats] of mentioned) {
        const positive = chart.getByTestId(`aspect-positive-${id}`);
        const bar = await positive.boundingBox();
        const track = await positive.locator('..').boundingBox();
        expect(bar?.width ?? 0).toBeCloseTo(
          (track!.width * stats.positive) / stats.review_count,
          0,
        );
        await expect(chart.getByTestId(`aspect-${id}`).textContent()).resolves.toContain(
          `${stats.label}: ${stats.review_count} reviews`,
        );
      }
    } finally {
      await page.close();
    }
  });

  test('links both feeds in the head and carries a RoofingContractor with its rating', async () => {
    const { page } = await openPage('/');
    try {
      const alternates = await page
        .locator('link[rel="alternate"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('type')));
      expect(alternates).toEqual(
        expect.arrayContaining(['application/atom+xml', 'application/feed+json']),
      );
      const [business] = await jsonLdOf(page);
      expect(business).toMatchObject({
        '@type': 'RoofingContractor',
        name: dataset.business.name,
        aggregateRating: {
          ratingValue: dataset.aggregate_rating.rating_value,
          reviewCount: dataset.aggregate_rating.review_count,
        },
      });
    } finally {
      await page.close();
    }
  });

  test('runs no script from review text and ships no client script', async () => {
    const { page, dialogs, errors } = await openPage('/');
    try {
      expect(await page.locator(`article[data-review-id="${HARD_TEXT_ID}"]`).count()).toBe(1);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
      const scriptTypes = await page
        .locator('script')
        .evaluateAll((scripts) => scripts.map((script) => script.getAttribute('type')));
      expect(scriptTypes).toEqual(['application/ld+json']);
    } finally {
      await page.close();
    }
  });

  test('saves a screenshot', async () => {
    const { page } = await openPage('/');
    try {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'home.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe('dark mode', () => {
  test('every text in the aspects section contrasts at least 4.5:1 with its card background', async () => {
    const { page } = await openPage('/', { colorScheme: 'dark' });
    try {
      const result = await page.evaluate(() => {
        const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
        const luminance = (color: string) => {
          const [r = 0, g = 0, b = 0] = channels(color).map((value) => {
            const c = value / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const contrast = (a: string, b: string) => {
          const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
          return (light! + 0.05) / (dark! + 0.05);
        };
        const section = document.querySelector('#aspects')!;
        const background = getComputedStyle(section).backgroundColor;
        const card = getComputedStyle(document.querySelector('.review-card')!).backgroundColor;
        const texts = [...section.querySelectorAll('*')].filter((element) =>
          [...element.childNodes].some(
            (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '',
          ),
        );
        return {
          background,
          card,
          worst: Math.min(...texts.map((e) => contrast(getComputedStyle(e).color, background))),
          count: texts.length,
        };
      });
      expect(result.count).toBeGreaterThan(0);
      expect(result.background).toBe(result.card);
      expect(result.worst).toBeGreaterThanOrEqual(4.5);
    } finally {
      await page.close();
    }
  });
});

describe('page structure', () => {
  const LANDMARKS = new Set([
    'banner',
    'complementary',
    'contentinfo',
    'form',
    'main',
    'navigation',
    'region',
    'search',
  ]);

  test.each(['/', '/reviews/', `/reviews/${REPLY_ID}/`])(
    '%s: headings never skip a level and landmarks are unique, none inside a review',
    async (urlPath) => {
      const { page } = await openPage(urlPath);
      try {
        const levels = await page
          .locator('h1, h2, h3, h4, h5, h6')
          .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName[1])));
        expect(levels[0]).toBe(1);
        const skips = levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1);
        expect(skips, `heading levels ${levels.join(' ')}`).toEqual([]);
        expect(await page.locator('article[data-review-id] .owner-reply').count()).toBe(1);

        // Chromium's own accessibility tree: what a screen reader's landmark list shows.
        const cdp = await page.context().newCDPSession(page);
        const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
          nodes: {
            nodeId: string;
            parentId?: string;
            ignored: boolean;
            role?: { value?: string };
            name?: { value?: string };
          }[];
        };
        const byId = new Map(nodes.map((node) => [node.nodeId, node]));
        const insideArticle = (node: (typeof nodes)[number]) => {
          for (let up = byId.get(node.parentId ?? ''); up; up = byId.get(up.parentId ?? ''))
            if (up.role?.value === 'article') return true;
          return false;
        };
        const landmarks = nodes.filter(
          (node) => !node.ignored && LANDMARKS.has(String(node.role?.value)),
        );
        const named = landmarks.map((node) => `${node.role?.value} "${node.name?.value ?? ''}"`);
        expect(new Set(named).size, named.join(', ')).toBe(named.length);
        expect(landmarks.filter(insideArticle).map((node) => node.name?.value)).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  test('the owner reply is shown inside its review, with who wrote it', async () => {
    const review = reviewById(REPLY_ID);
    for (const urlPath of ['/', `/reviews/${review.id}/`]) {
      const { page } = await openPage(urlPath);
      try {
        const reply = page.locator(`article[data-review-id="${review.id}"] .owner-reply`);
        expect(await reply.count()).toBe(1);
        await expect(reply.textContent()).resolves.toContain(`Reply from ${dataset.business.name}`);
        await expect(reply.textContent()).resolves.toContain(review.owner_reply!.text);
      } finally {
        await page.close();
      }
    }
  });
});

describe('review page', () => {
  test('renders the review in full with its canonical link and the owner reply', async () => {
    const review = reviewById(REPLY_ID);
    const { page } = await openPage(`/reviews/${review.id}/`);
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe(reviewHeading(review));
      await expect(page.getByTestId('review-text').textContent()).resolves.toContain(review.text);
      await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toBe(
        review.url,
      );
      const body = await page.locator('main').textContent();
      expect(body).toContain(review.author.name);
      expect(body).toContain(review.owner_reply!.text);
      expect(body).toContain('Verified by the review platform');
      expect(body).toContain('Eugene');
      await expect(page.locator('a[href="/"]').first().isVisible()).resolves.toBe(true);
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'review.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  test('shows hard text literally and runs none of its scripts', async () => {
    const review = reviewById(HARD_TEXT_ID);
    expect(review.title).toContain('</script><script>alert("xss")</script>');
    expect(review.text).toContain('<script>window.__pwned = true</script>');
    const { page, dialogs, errors } = await openPage(`/reviews/${review.id}/`);
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe(review.title);
      await expect(page.title()).resolves.toContain(review.title!);
      await expect(page.getByTestId('review-text').textContent()).resolves.toBe(review.text);
      expect(await page.getByTestId('review-text').locator('b, script').count()).toBe(0);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.locator('script').count()).toBe(1);
    } finally {
      await page.close();
    }
  });

  test('carries a Review as JSON-LD whose body is the exact review text', async () => {
    const review = reviewById(HARD_TEXT_ID);
    const { page } = await openPage(`/reviews/${review.id}/`);
    try {
      const blocks = await jsonLdOf(page);
      expect(blocks).toHaveLength(1);
      expect(blocks[0]).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Review',
        name: review.title,
        reviewBody: review.text,
        datePublished: review.date,
        author: { '@type': 'Person', name: review.author.name },
        reviewRating: { '@type': 'Rating', ratingValue: review.rating },
        itemReviewed: { '@type': 'RoofingContractor', name: dataset.business.name },
      });
    } finally {
      await page.close();
    }
  });

  test('renders emoji and accented text', async () => {
    const accented = reviewById(ACCENTED_ID);
    const { page } = await openPage(`/reviews/${accented.id}/`);
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe('Gutters at the café');
      const body = await page.locator('main').textContent();
      expect(body).toContain('José Núñez');
      expect(body).toContain('Łódź Café, Eugene');
      expect(body).toContain('Mike Álvarez');
      expect(body).toContain('CAFÉ');
    } finally {
      await page.close();
    }
    const hard = await openPage(`/reviews/${HARD_TEXT_ID}/`);
    try {
      await expect(hard.page.getByTestId('review-text').textContent()).resolves.toContain(
        '🏠👍 🇺🇸 𝄞',
      );
    } finally {
      await hard.page.close();
    }
  });
});
