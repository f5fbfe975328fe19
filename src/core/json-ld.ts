// schema.org JSON-LD for the HTML pages: the business (a RoofingContractor with its aggregate rating
// and a few reviews) on the home page, one Review per review page, and the serializer that makes
// the result safe inside <script type="application/ld+json">. Pure; the Astro pages call it.
import { reviewTitle } from './feeds.ts';
import type { AggregateRating, Business, Review } from './review.ts';
import { absoluteUrl } from './site.ts';

export const SCHEMA_ORG_CONTEXT = 'https://schema.org';

/** How many reviews the home page's business node carries (the full set is in /reviews.json). */
export const JSON_LD_REVIEW_COUNT = 5;

export type JsonLdNode = { [key: string]: JsonLdValue };
export type JsonLdValue = string | number | boolean | null | JsonLdNode | JsonLdValue[];

// HTML §4.12.1.3: a script element's text ends at `</script` and `<!--` changes how it is parsed,
// so `<` (and, for good measure, `>` and `&`) never appear literally. U+2028/U+2029 are escaped so
// the output is also a valid JavaScript string literal for any consumer that evals it.
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * JSON text for a `<script type="application/ld+json">` element: `JSON.parse` gives back `value`,
 * and no review text can close the element or open a comment in it.
 */
export function serializeJsonLd(value: JsonLdValue): string {
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, unicodeEscape);
}

/** schema.org DayOfWeek names (also the pages' spelled-out days). */
export const DAY_NAMES = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
} as const;

function postalAddress(business: Business): JsonLdNode {
  const { address } = business;
  return {
    '@type': 'PostalAddress',
    streetAddress: address.street_address,
    addressLocality: address.locality,
    addressRegion: address.region,
    postalCode: address.postal_code,
    addressCountry: address.country_code,
  };
}

function businessId(siteUrl: string): string {
  return absoluteUrl(siteUrl, '/#business');
}

/** The business as a review's `itemReviewed`: enough to identify it without the whole node. */
function businessReference(siteUrl: string, business: Business): JsonLdNode {
  return {
    '@type': 'RoofingContractor',
    '@id': businessId(siteUrl),
    name: business.name,
    address: postalAddress(business),
    ...(business.contact.phone ? { telephone: business.contact.phone } : {}),
    url: business.contact.website ?? absoluteUrl(siteUrl, '/'),
  };
}

function rating(value: number): JsonLdNode {
  return { '@type': 'Rating', ratingValue: value, bestRating: 5, worstRating: 1 };
}

/** A review without its `itemReviewed`, for nesting under the business it reviews. */
function reviewNode(review: Review): JsonLdNode {
  return {
    '@type': 'Review',
    '@id': review.url,
    url: review.url,
    name: reviewTitle(review),
    reviewBody: review.text,
    datePublished: review.date,
    dateModified: review.updated,
    inLanguage: review.language,
    author: { '@type': 'Person', name: review.author.name },
    reviewRating: rating(review.rating),
  };
}

export interface BusinessJsonLdInput {
  siteUrl: string;
  business: Business;
  aggregateRating: AggregateRating;
  /** Published reviews, newest first; the first JSON_LD_REVIEW_COUNT are included. */
  reviews: readonly Review[];
}

/** The home page's RoofingContractor (a schema.org LocalBusiness). */
export function buildBusinessJsonLd({
  siteUrl,
  business,
  aggregateRating,
  reviews,
}: BusinessJsonLdInput): JsonLdNode {
  const { contact } = business;
  const node: JsonLdNode = {
    '@context': SCHEMA_ORG_CONTEXT,
    ...businessReference(siteUrl, business),
    ...(business.legal_name ? { legalName: business.legal_name } : {}),
    ...(business.description ? { description: business.description } : {}),
    ...(contact.email ? { email: contact.email } : {}),
    ...(business.founded_year ? { foundingDate: String(business.founded_year) } : {}),
    ...(business.hours?.length
      ? {
          openingHoursSpecification: business.hours.map((slot) => ({
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: slot.days.map((day) => DAY_NAMES[day]),
            opens: slot.opens,
            closes: slot.closes,
          })),
        }
      : {}),
    ...(business.service_areas.length
      ? {
          areaServed: business.service_areas.map((area) => ({ '@type': 'Place', name: area.name })),
        }
      : {}),
    ...(business.profiles?.length ? { sameAs: business.profiles.map((p) => p.url) } : {}),
  };
  // schema.org: an AggregateRating needs a ratingValue, which does not exist without reviews.
  if (aggregateRating.rating_value !== null && aggregateRating.review_count > 0) {
    node['aggregateRating'] = {
      '@type': 'AggregateRating',
      ratingValue: aggregateRating.rating_value,
      reviewCount: aggregateRating.review_count,
      bestRating: aggregateRating.best_rating,
      worstRating: aggregateRating.worst_rating,
    };
    node['review'] = reviews.slice(0, JSON_LD_REVIEW_COUNT).map(reviewNode);
  }
  return node;
}

/** A review page's Review, with the business as `itemReviewed`. */
export function buildReviewJsonLd(siteUrl: string, business: Business, review: Review): JsonLdNode {
  return {
    '@context': SCHEMA_ORG_CONTEXT,
    ...reviewNode(review),
    itemReviewed: businessReference(siteUrl, business),
  };
}
