// The sitemap (sitemaps.org protocol 0.9) of every HTML page: the home page, each listing page and
// each review page, with `lastmod` from the content. Past 50,000 URLs or 50 MB, /sitemap.xml is a
// sitemap index over /sitemap-1.xml, /sitemap-2.xml, … Pure: the same content gives the same bytes.
import { listingPageCount, listingPagePath, LISTING_PAGE_SIZE } from './listing.ts';
import type { Review } from './review.ts';
import { PATHS, absoluteUrl, reviewPagePath } from './site.ts';

/** sitemaps.org: at most 50,000 URLs and 50 MB (52,428,800 bytes, uncompressed) per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 52_428_800;

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n`;
const URLSET_CLOSE = '</urlset>\n';

export interface SitemapEntry {
  /** URL path of the page. */
  path: string;
  /** YYYY-MM-DD; omitted when the content gives no date (a site without reviews). */
  lastmod?: string | undefined;
}

export interface SitemapLimits {
  maxUrls: number;
  maxBytes: number;
}

export interface SitemapInput {
  siteUrl: string;
  /** Published reviews, newest first. */
  reviews: readonly Review[];
  pageSize?: number;
  limits?: SitemapLimits;
}

/** URL path of the n-th (1-based) sitemap under the index; only used past the limits. */
export function sitemapPartPath(part: number): string {
  return `/sitemap-${part}.xml`;
}

function later(a: string | undefined, b: string): string {
  return a === undefined || b > a ? b : a;
}

/**
 * Every page once, home first, then the listing pages in order, then the reviews newest first.
 * A review page changes when the review does (`updated` covers edits and the owner's reply); a
 * listing page when one of its reviews does or a newer review pushes the list down; the home page
 * (aggregate rating, newest reviews) whenever any review changes.
 */
export function sitemapEntries(
  reviews: readonly Review[],
  pageSize = LISTING_PAGE_SIZE,
): SitemapEntry[] {
  let latest: string | undefined;
  for (const review of reviews) latest = later(latest, review.updated);
  const newestDate = reviews[0]?.date;
  const entries: SitemapEntry[] = [{ path: '/', lastmod: latest }];
  const pageCount = listingPageCount(reviews.length, pageSize);
  for (let page = 1; page <= pageCount; page += 1) {
    let lastmod = newestDate;
    const end = Math.min(reviews.length, page * pageSize);
    for (let index = (page - 1) * pageSize; index < end; index += 1)
      lastmod = later(lastmod, reviews[index]!.updated);
    entries.push({ path: listingPagePath(page), lastmod });
  }
  for (const review of reviews)
    entries.push({ path: reviewPagePath(review.id), lastmod: review.updated });
  return entries;
}

/** Escapes text and attribute content for XML (URLs may carry `&`). */
function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function locElement(element: 'url' | 'sitemap', loc: string, lastmod: string | undefined): string {
  const date = lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`;
  return `  <${element}><loc>${xmlEscape(loc)}</loc>${date}</${element}>\n`;
}

/**
 * The sitemap files by URL path: `/sitemap.xml` alone while every page fits in one file within
 * `limits`, otherwise `/sitemap.xml` as the index and the parts it lists.
 */
export function renderSitemaps({
  siteUrl,
  reviews,
  pageSize = LISTING_PAGE_SIZE,
  limits = { maxUrls: SITEMAP_MAX_URLS, maxBytes: SITEMAP_MAX_BYTES },
}: SitemapInput): Map<string, string> {
  const frameBytes = Buffer.byteLength(URLSET_OPEN) + Buffer.byteLength(URLSET_CLOSE);
  const parts: { lines: string[]; lastmod: string | undefined }[] = [];
  let current: { lines: string[]; lastmod: string | undefined; bytes: number } | undefined;
  for (const entry of sitemapEntries(reviews, pageSize)) {
    const line = locElement('url', absoluteUrl(siteUrl, entry.path), entry.lastmod);
    const bytes = Buffer.byteLength(line);
    if (frameBytes + bytes > limits.maxBytes)
      throw new RangeError(
        `the sitemap entry of ${entry.path} alone exceeds ${limits.maxBytes} bytes`,
      );
    if (
      !current ||
      current.lines.length >= limits.maxUrls ||
      current.bytes + bytes > limits.maxBytes
    ) {
      current = { lines: [], lastmod: undefined, bytes: frameBytes };
      parts.push(current);
    }
    current.lines.push(line);
    current.bytes += bytes;
    if (entry.lastmod !== undefined) current.lastmod = later(current.lastmod, entry.lastmod);
  }
  const urlset = (lines: readonly string[]) => `${URLSET_OPEN}${lines.join('')}${URLSET_CLOSE}`;
  if (parts.length === 1) return new Map([[PATHS.sitemap, urlset(parts[0]!.lines)]]);

  const files = new Map<string, string>();
  const index = parts.map((part, i) =>
    locElement('sitemap', absoluteUrl(siteUrl, sitemapPartPath(i + 1)), part.lastmod),
  );
  files.set(
    PATHS.sitemap,
    `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${index.join('')}</sitemapindex>\n`,
  );
  parts.forEach((part, i) => files.set(sitemapPartPath(i + 1), urlset(part.lines)));
  return files;
}
