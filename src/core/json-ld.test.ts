// Unit tests of the schema.org JSON-LD: the serializer's round trip and script-safety, and the
// shapes of the home page's RoofingContractor and a review page's Review.
import { describe, expect, test } from 'vitest';
import {
  JSON_LD_REVIEW_COUNT,
  buildBusinessJsonLd,
  buildReviewJsonLd,
  serializeJsonLd,
  type JsonLdValue,
} from './json-ld.ts';
import { computeAggregateRating } from './review.ts';
import { makeBusiness, makeDetailedReview } from '../../test/support/builders.ts';

const SITE_URL = 'https://reviews.summit-roofing.example';

const HOSTILE = '</script><script>alert("xss")</script> <!-- & --> \u2028\u2029 <SCRIPT> ]]> 🏠 é';

describe('serializeJsonLd', () => {
  test('JSON.parse of the output gives back the value', () => {
    const value: JsonLdValue = {
      text: HOSTILE,
      nested: [{ '<key>': 'a&b' }, 1, 2.5, true, null, ''],
      control: 'bell \u0007 tab \t',
    };
    expect(JSON.parse(serializeJsonLd(value))).toEqual(value);
  });

  test('the output contains no <, >, &, U+2028 or U+2029, so no </script> and no <!--', () => {
    const output = serializeJsonLd({ reviewBody: HOSTILE, name: '<!--', author: '</SCRIPT >' });
    expect(output).not.toMatch(/[<>&\u2028\u2029]/);
    expect(output.toLowerCase()).not.toContain('</script');
    expect(output).not.toContain('<!--');
    expect(output).toContain('\\u003c/script\\u003e');
    expect(output).toContain('\\u0026');
    expect(output).toContain('\\u2028\\u2029');
  });

  test('the output is plain JSON.stringify when nothing needs escaping', () => {
    const value = { name: 'Summit Roofing', rating: 4.5 };
    expect(serializeJsonLd(value)).toBe(JSON.stringify(value));
  });
});

describe('buildBusinessJsonLd', () => {
  const business = makeBusiness({
    description: 'Roofs in Denver.',
    hours: [{ days: ['mon', 'tue'], opens: '08:00', closes: '17:00' }],
  });
  const reviews = Array.from({ length: 8 }, (_, i) =>
    makeDetailedReview({ id: `r-${i}`, rating: i % 2 === 0 ? 5 : 4 }),
  );
  const node = buildBusinessJsonLd({
    siteUrl: SITE_URL,
    business,
    aggregateRating: computeAggregateRating(reviews),
    reviews,
  });

  test('is a RoofingContractor with address, telephone and url', () => {
    expect(node).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'RoofingContractor',
      name: 'Summit Roofing',
      description: 'Roofs in Denver.',
      telephone: '+1 303 555 0100',
      url: 'https://www.summit-roofing.example/',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '1 Main St',
        addressLocality: 'Denver',
        addressRegion: 'CO',
        postalCode: '80202',
        addressCountry: 'US',
      },
      openingHoursSpecification: [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday', 'Tuesday'],
          opens: '08:00',
          closes: '17:00',
        },
      ],
      areaServed: [{ '@type': 'Place', name: 'Denver' }],
    });
  });

  test('carries the aggregate rating with its best and worst rating', () => {
    expect(node['aggregateRating']).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.5,
      reviewCount: 8,
      bestRating: 5,
      worstRating: 1,
    });
  });

  test(`carries the ${JSON_LD_REVIEW_COUNT} newest reviews as Review nodes`, () => {
    const nested = node['review'] as Record<string, unknown>[];
    expect(nested.map((review) => review['@id'])).toEqual(
      reviews.slice(0, JSON_LD_REVIEW_COUNT).map((review) => review.url),
    );
    expect(nested[0]).toMatchObject({
      '@type': 'Review',
      author: { '@type': 'Person', name: 'Pat Doe' },
      reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
      datePublished: '2024-05-01',
    });
  });

  test('falls back to the site URL without a website and omits the rating without reviews', () => {
    const bare = buildBusinessJsonLd({
      siteUrl: `${SITE_URL}/`,
      business: makeBusiness({ contact: {} }),
      aggregateRating: computeAggregateRating([]),
      reviews: [],
    });
    expect(bare['url']).toBe(`${SITE_URL}/`);
    expect(bare).not.toHaveProperty('telephone');
    expect(bare).not.toHaveProperty('aggregateRating');
    expect(bare).not.toHaveProperty('review');
  });
});

describe('buildReviewJsonLd', () => {
  test('is a Review of the business with rating, author, date and body', () => {
    const review = makeDetailedReview({ rating: 3, text: HOSTILE, title: null });
    const node = buildReviewJsonLd(SITE_URL, makeBusiness(), review);
    expect(node).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Review',
      url: review.url,
      name: '3-star review by Pat Doe',
      reviewBody: HOSTILE,
      datePublished: '2024-05-01',
      author: { '@type': 'Person', name: 'Pat Doe' },
      reviewRating: { '@type': 'Rating', ratingValue: 3, bestRating: 5, worstRating: 1 },
      itemReviewed: {
        '@type': 'RoofingContractor',
        '@id': `${SITE_URL}/#business`,
        name: 'Summit Roofing',
        telephone: '+1 303 555 0100',
        address: { '@type': 'PostalAddress', postalCode: '80202' },
      },
    });
  });

  test('its serialization round-trips hostile review text', () => {
    const review = makeDetailedReview({ text: HOSTILE });
    const node = buildReviewJsonLd(SITE_URL, makeBusiness(), review);
    const parsed = JSON.parse(serializeJsonLd(node)) as { reviewBody: string };
    expect(parsed.reviewBody).toBe(HOSTILE);
  });
});
