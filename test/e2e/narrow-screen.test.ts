// The HTML pages on a 320px-wide screen in headless Chromium, over fixture content whose values are
// as long as the content rules allow: a 300-character title, a 200-character author and location,
// and single words of 180 characters and more in the business name, the text and the reply. No page
// may scroll sideways.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_NAME_LENGTH, MAX_TITLE_LENGTH } from '../../src/core/review.ts';
import { FIXTURE_CONTENT, ROOT, buildSite, distPath } from '../support/build-site.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const CHROMIUM_PATH = '/usr/bin/chromium';
const WIDTH = 320;
const LONG_ID = '2024-06-15-long-words';

let server: RunningServer;
let browser: Browser;

/** One word of `length` letters, no break opportunity in it. */
const word = (letter: string, length: number) => letter.repeat(length);

beforeAll(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing`);
  const content = await mkdtemp(path.join(ROOT, 'test-results', 'narrow-content-'));
  await cp(FIXTURE_CONTENT, content, { recursive: true });
  const businessFile = path.join(content, 'business.json');
  const business = JSON.parse(await readFile(businessFile, 'utf8')) as { name: string };
  business.name = `Roofing ${word('B', 180)}`;
  await writeFile(businessFile, JSON.stringify(business));
  await writeFile(
    path.join(content, 'reviews', `${LONG_ID}.md`),
    [
      '---',
      'rating: 5',
      'date: "2024-06-15"',
      `title: ${word('T', MAX_TITLE_LENGTH)}`,
      `author: ${word('A', MAX_NAME_LENGTH)}`,
      `location: ${word('L', MAX_NAME_LENGTH)}`,
      'source: google',
      'verification: platform_verified',
      'technicians: [sam-lee]',
      'services: [gutters]',
      'reply:',
      '  date: "2024-06-16"',
      `  text: Thanks ${word('R', 180)}`,
      '---',
      `Sam fixed the gutters. ${word('W', 180)} Tidy and on time.`,
      '',
    ].join('\n'),
  );
  const dist = distPath('dist-narrow-screen');
  await buildSite({ contentDir: content, distDir: dist });
  await rm(content, { recursive: true, force: true });
  server = await startServer(dist);
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test.each(['/', '/reviews/', `/reviews/${LONG_ID}/`])(
  '%s does not scroll sideways at 320px',
  async (urlPath) => {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 640 } });
    try {
      const response = await page.goto(`${server.url}${urlPath}`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(await page.locator(`[data-review-id="${LONG_ID}"]`).count()).toBe(1);
      const overflow = await page.evaluate((width) => {
        // The innermost elements that reach past the screen's right edge, to say what overflows.
        const past = (element: Element) => element.getBoundingClientRect().right > width + 0.5;
        const wider = [...document.querySelectorAll('body *')]
          .filter((element) => past(element) && ![...element.children].some(past))
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
        return { scrollWidth: document.documentElement.scrollWidth, wider };
      }, WIDTH);
      expect(overflow.scrollWidth, overflow.wider.join(', ')).toBeLessThanOrEqual(WIDTH);
    } finally {
      await page.close();
    }
  },
);
