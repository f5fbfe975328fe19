// Renders every published text file of the site (datasets, feeds, API description, agent guide,
// robots.txt) from validated content. Pure: the same content and SITE_URL give the same bytes.
import { renderAtomFeed, renderJsonFeed } from './feeds.ts';
import { buildInsights } from './insights/dataset.ts';
import type { InsightsEditorial } from './insights/editorial.ts';
import type { Lexicon } from './insights/lexicon.ts';
import { renderLlmsTxt } from './llms-txt.ts';
import { renderRobotsTxt } from './robots-txt.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { Business, Review } from './review.ts';
import { serializeReviewsDataset } from './reviews-dataset.ts';
import { PATHS, PUBLISHED_PATHS } from './site.ts';

export interface PublishInput {
  siteUrl: string;
  business: Business;
  /** Published reviews, newest first. */
  reviews: readonly Review[];
  editorial: InsightsEditorial;
  /** The reviews dataset bytes when the caller already serialized them (with the search data). */
  reviewsJson?: string;
  /** The aspect lexicon (content/insights/lexicon.json); without it no aspect is found. */
  lexicon?: Lexicon;
  /** The insights dataset bytes when the caller already built them (over several threads). */
  insightsJson?: string;
}

/** Body text of each pre-rendered file, keyed by its URL path. */
export type PublishedFiles = Record<(typeof PUBLISHED_PATHS)[number], string>;

export function renderPublishedFiles(input: PublishInput): PublishedFiles {
  const { siteUrl, business, reviews, editorial, lexicon } = input;
  return {
    [PATHS.reviews]: input.reviewsJson ?? serializeReviewsDataset(business, reviews).json,
    [PATHS.insights]:
      input.insightsJson ?? JSON.stringify(buildInsights(business, reviews, editorial, lexicon)),
    [PATHS.jsonFeed]: renderJsonFeed({ siteUrl, business, reviews }),
    [PATHS.atomFeed]: renderAtomFeed({ siteUrl, business, reviews }),
    [PATHS.openapi]: JSON.stringify(buildOpenApiDocument({ siteUrl, business }), null, 2),
    [PATHS.llms]: renderLlmsTxt({ siteUrl, business, reviewCount: reviews.length }),
    [PATHS.robots]: renderRobotsTxt(siteUrl),
  };
}
