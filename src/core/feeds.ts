// JSON Feed 1.1 (built as a plain object) and Atom (RFC 4287, written directly) of the newest
// reviews. Pure functions of the reviews and the business: no clock, stable order. A review's dates
// are calendar days; the feeds date each at the start of that day in the business's time zone.
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { startOfDayInZone } from './dates.ts';
import type { Business, Review } from './review.ts';
import { PATHS, absoluteUrl } from './site.ts';

/** Spec §2: the feed holds the 50 newest reviews. */
export const FEED_SIZE = 50;

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

export interface FeedContext {
  siteUrl: string;
  business: Business;
  /** Published reviews, newest first. */
  reviews: readonly Review[];
}

/**
 * Authority of the feeds' `tag:` ids (RFC 4151): the business's own domain and founding year, so ids
 * survive a move of SITE_URL. Without a website or a founding year the name and 2000 stand in.
 */
export function tagAuthority(business: Business): string {
  const host = business.contact.website
    ? new URL(business.contact.website).hostname.replace(/^www\./, '')
    : `${nameLabel(business.name)}.invalid`;
  return `${host},${business.founded_year ?? 2000}`;
}

/**
 * A DNS label made from the business name, different for different names: its letters, marks and
 * digits in any script, lower-cased, each run of anything else a hyphen, in ASCII form (an
 * all-ASCII name as it is, `summit-roofing`; any other as punycode, `xn--…`). A name IDNA refuses
 * as a label, or with no letter or digit at all, stands as a short hash of itself.
 */
function nameLabel(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  const label = slug ? domainToASCII(slug) : '';
  if (/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(label)) return label;
  return `business-${createHash('sha256').update(name.normalize('NFC')).digest('hex').slice(0, 12)}`;
}

export function reviewTagUri(business: Business, reviewId: string): string {
  return `tag:${tagAuthority(business)}:review:${reviewId}`;
}

export function reviewTitle(review: Review): string {
  return review.title ?? `${review.rating}-star review by ${review.author.name}`;
}

/** A review's heading on a page that shows the author right below it: no author repeated. */
export function reviewHeading(review: Review): string {
  return review.title ?? `${review.rating}-star review`;
}

function newestFeedReviews(reviews: readonly Review[]): readonly Review[] {
  return reviews.slice(0, FEED_SIZE);
}

/** Latest `updated` among the reviews: the feed's own modification date (epoch when empty). */
function latestUpdate(reviews: readonly Review[]): string {
  let latest = '1970-01-01';
  for (const review of reviews) if (review.updated > latest) latest = review.updated;
  return latest;
}

function serviceNames(business: Business, ids: readonly string[]): string[] {
  return ids.map((id) => business.services.find((service) => service.id === id)?.name ?? id);
}

export function buildJsonFeed({
  siteUrl,
  business,
  reviews,
}: FeedContext): Record<string, unknown> {
  return {
    version: JSON_FEED_VERSION,
    title: `${business.name}: verified customer reviews`,
    home_page_url: absoluteUrl(siteUrl, '/'),
    feed_url: absoluteUrl(siteUrl, PATHS.jsonFeed),
    description: `The ${FEED_SIZE} newest verified customer reviews of ${business.name}.`,
    authors: [
      {
        name: business.name,
        ...(business.contact.website ? { url: business.contact.website } : {}),
      },
    ],
    language: 'en',
    hubs: [{ type: 'WebSub', url: absoluteUrl(siteUrl, PATHS.hub) }],
    items: newestFeedReviews(reviews).map((review) => ({
      id: reviewTagUri(business, review.id),
      url: review.url,
      title: reviewTitle(review),
      content_text: review.text,
      date_published: startOfDayInZone(review.date, business.timezone),
      date_modified: startOfDayInZone(review.updated, business.timezone),
      authors: [{ name: review.author.name }],
      tags: serviceNames(business, review.service_ids),
      language: review.language,
      _review: {
        about: absoluteUrl(siteUrl, PATHS.openapi),
        rating: review.rating,
        technicians: review.technicians,
        service_ids: review.service_ids,
        verification: review.verification,
      },
    })),
  };
}

export function renderJsonFeed(context: FeedContext): string {
  return JSON.stringify(buildJsonFeed(context));
}

// XML 1.0 §2.2: only #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripXmlForbidden(value: string): string {
  return value.replace(XML_FORBIDDEN, '');
}

/** Escapes text for an HTML context (Atom `type="html"` content is HTML, not text). */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** XML character data: the string itself once parsed (`>` too, so `]]>` never appears). */
function xmlText(value: string): string {
  return stripXmlForbidden(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

const xmlAttribute = (value: string) => xmlText(value).replace(/"/g, '&quot;');

/** The line that keeps the rating and the author with the text wherever a reader shows it. */
export function ratingLine(review: Review): string {
  return `Rated ${review.rating} of 5 by ${review.author.name}`;
}

/**
 * The item's text as feed readers show it: the review, then the rating line. Readers list an entry
 * by its summary (or the first words of its content), so both must start with the review itself.
 */
export function feedItemText(review: Review): string {
  return `${review.text}\n\n${ratingLine(review)}`;
}

function htmlParagraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

type Attributes = [name: string, value: string][];

const attributesOf = (attributes: Attributes) =>
  attributes.map(([name, value]) => ` ${name}="${xmlAttribute(value)}"`).join('');

/** `<name attributes>text</name>`, every value escaped. */
function element(name: string, text: string, attributes: Attributes = []): string {
  return `<${name}${attributesOf(attributes)}>${xmlText(text)}</${name}>`;
}

function emptyElement(name: string, attributes: Attributes): string {
  return `<${name}${attributesOf(attributes)}/>`;
}

/** An element with child elements, one a line, indented four spaces deeper than `indent`. */
function block(name: string, indent: string, children: string[], attributes: Attributes = []) {
  const inner = children.map((child) => `${indent}    ${child}\n`).join('');
  return `<${name}${attributesOf(attributes)}>\n${inner}${indent}</${name}>`;
}

function author(indent: string, name: string, uri?: string): string {
  return block('author', indent, [element('name', name), ...(uri ? [element('uri', uri)] : [])]);
}

function atomEntry(business: Business, review: Review): string {
  const indent = '        ';
  return block(
    'entry',
    '    ',
    [
      element('title', reviewTitle(review), [['type', 'text']]),
      element('id', reviewTagUri(business, review.id)),
      emptyElement('link', [
        ['rel', 'alternate'],
        ['type', 'text/html'],
        ['href', review.url],
      ]),
      element('updated', startOfDayInZone(review.updated, business.timezone)),
      element('published', startOfDayInZone(review.date, business.timezone)),
      author(indent, review.author.name),
      ...review.service_ids.map((id) =>
        emptyElement('category', [
          ['term', id],
          ['label', serviceNames(business, [id])[0] ?? id],
        ]),
      ),
      element('summary', feedItemText(review), [['type', 'text']]),
      element('content', `${htmlParagraphs(review.text)}<p>${escapeHtml(ratingLine(review))}</p>`, [
        ['type', 'html'],
      ]),
    ],
    [['xml:lang', review.language]],
  );
}

/**
 * Atom (RFC 4287), written directly so that each construct says what it holds: titles and
 * summaries are plain text (`type="text"`, so readers show them as written), the content is HTML.
 */
export function renderAtomFeed({ siteUrl, business, reviews }: FeedContext): string {
  const items = newestFeedReviews(reviews);
  const feed = block(
    'feed',
    '',
    [
      element('id', `tag:${tagAuthority(business)}:reviews`),
      element('title', `${business.name}: verified customer reviews`, [['type', 'text']]),
      element(
        'subtitle',
        `The ${FEED_SIZE} newest verified customer reviews of ${business.name}.`,
        [['type', 'text']],
      ),
      element('updated', startOfDayInZone(latestUpdate(items), business.timezone)),
      element('generator', 'reviews-service'),
      author('    ', business.name, business.contact.website),
      emptyElement('link', [
        ['rel', 'alternate'],
        ['type', 'text/html'],
        ['href', absoluteUrl(siteUrl, '/')],
      ]),
      emptyElement('link', [
        ['rel', 'self'],
        ['type', 'application/atom+xml'],
        ['href', absoluteUrl(siteUrl, PATHS.atomFeed)],
      ]),
      emptyElement('link', [
        ['rel', 'hub'],
        ['href', absoluteUrl(siteUrl, PATHS.hub)],
      ]),
      ...items.map((review) => atomEntry(business, review)),
    ],
    [
      ['xmlns', 'http://www.w3.org/2005/Atom'],
      ['xml:lang', 'en'],
    ],
  );
  return `<?xml version="1.0" encoding="utf-8"?>\n${feed}\n`;
}
