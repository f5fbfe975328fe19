// JSON Feed 1.1 (built as a plain object) and Atom (RFC 4287, through the `feed` package) of the
// newest reviews. Pure functions of the reviews and the business: no clock, stable order.
import { Feed } from 'feed';
import { isoDateToTimestamp } from './dates.ts';
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
    : `${
        business.name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '') || 'business'
      }.invalid`;
  return `${host},${business.founded_year ?? 2000}`;
}

export function reviewTagUri(business: Business, reviewId: string): string {
  return `tag:${tagAuthority(business)}:review:${reviewId}`;
}

export function reviewTitle(review: Review): string {
  return review.title ?? `${review.rating}-star review by ${review.author.name}`;
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
      date_published: isoDateToTimestamp(review.date),
      date_modified: isoDateToTimestamp(review.updated),
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

const htmlText = (value: string) => escapeHtml(stripXmlForbidden(value));

// For Atom's plain-text elements. xml-js (under `feed`) turns `&amp;` back into `&` before it
// escapes `& < >`, so a literal "&amp;" would lose its escape: escaping `&` first makes the
// round trip exact. Escaping more (`htmlText`) would show up as literal `&#39;` in a text title.
const xmlText = (value: string) => stripXmlForbidden(value).replace(/&/g, '&amp;');

// `feed` escapes only `&` in attribute values (xml-js adds `&quot;`), so a `<` would make the
// document ill-formed: the service id (a slug) is the term, its name the label when that is safe.
function atomCategory(business: Business, serviceId: string): { term: string; name?: string } {
  const name = stripXmlForbidden(serviceNames(business, [serviceId])[0] ?? serviceId);
  return { term: serviceId, ...(name.includes('<') ? {} : { name }) };
}

function htmlParagraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${htmlText(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function renderAtomFeed({ siteUrl, business, reviews }: FeedContext): string {
  const items = newestFeedReviews(reviews);
  const feed = new Feed({
    id: `tag:${tagAuthority(business)}:reviews`,
    title: xmlText(`${business.name}: verified customer reviews`),
    description: xmlText(`The ${FEED_SIZE} newest verified customer reviews of ${business.name}.`),
    link: absoluteUrl(siteUrl, '/'),
    feed: absoluteUrl(siteUrl, PATHS.atomFeed),
    hub: absoluteUrl(siteUrl, PATHS.hub),
    updated: new Date(isoDateToTimestamp(latestUpdate(items))),
    generator: 'reviews-service',
    author: {
      name: xmlText(business.name),
      ...(business.contact.website ? { link: business.contact.website } : {}),
    },
  });
  for (const review of items) {
    feed.addItem({
      id: reviewTagUri(business, review.id),
      title: htmlText(reviewTitle(review)),
      link: review.url,
      date: new Date(isoDateToTimestamp(review.updated)),
      published: new Date(isoDateToTimestamp(review.date)),
      description: htmlText(`Rated ${review.rating} of 5 by ${review.author.name}`),
      content: htmlParagraphs(review.text),
      author: [{ name: xmlText(review.author.name) }],
      category: review.service_ids.map((id) => atomCategory(business, id)),
    });
  }
  return feed.atom1();
}
