// The paginated review listing (/reviews/, /reviews/page/2/, …): which reviews each page holds, its
// neighbours and the page numbers its navigation shows. Read by the listing pages and the sitemap.
import type { Review } from './review.ts';
import { PATHS } from './site.ts';

/** Reviews per listing page: a screenful or two of full reviews, and 4,000 pages at 100k reviews. */
export const LISTING_PAGE_SIZE = 25;

/** Page numbers the navigation shows on each side of the current page (besides first and last). */
const NAVIGATION_RADIUS = 2;

export function listingPagePath(page: number): string {
  return page === 1 ? PATHS.listing : `${PATHS.listing}page/${page}/`;
}

/** Pages of the listing: at least one, so an empty site still has a listing that says so. */
export function listingPageCount(reviewCount: number, pageSize = LISTING_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(reviewCount / pageSize));
}

export interface ListingPage {
  /** 1-based. */
  page: number;
  pageCount: number;
  /** This page's reviews, newest first. */
  reviews: readonly Review[];
  /** 1-based position of this page's first review in the whole listing (0 when there is none). */
  firstPosition: number;
  path: string;
  /** Newer reviews (the page before); null on page 1. */
  prevPath: string | null;
  /** Older reviews (the page after); null on the last page. */
  nextPath: string | null;
}

/** Page `page` of `reviews` (published reviews, newest first); a slice, so every page is O(page size). */
export function listingPage(
  reviews: readonly Review[],
  page: number,
  pageSize = LISTING_PAGE_SIZE,
): ListingPage {
  const pageCount = listingPageCount(reviews.length, pageSize);
  if (!Number.isInteger(page) || page < 1 || page > pageCount)
    throw new RangeError(`listing page ${page} does not exist (1–${pageCount})`);
  const start = (page - 1) * pageSize;
  const slice = reviews.slice(start, start + pageSize);
  return {
    page,
    pageCount,
    reviews: slice,
    firstPosition: slice.length > 0 ? start + 1 : 0,
    path: listingPagePath(page),
    prevPath: page > 1 ? listingPagePath(page - 1) : null,
    nextPath: page < pageCount ? listingPagePath(page + 1) : null,
  };
}

/**
 * Page numbers for the navigation: the first, the last and the pages near the current one, with
 * `null` where numbers are left out (1 … 4 5 6 7 8 … 4000). Bounded, whatever the page count.
 */
export function navigationPages(page: number, pageCount: number): (number | null)[] {
  const shown: (number | null)[] = [];
  const from = Math.max(1, page - NAVIGATION_RADIUS);
  const to = Math.min(pageCount, page + NAVIGATION_RADIUS);
  if (from > 1) shown.push(1);
  // A gap of one page shows that page rather than an ellipsis standing for it.
  if (from > 3) shown.push(null);
  else if (from === 3) shown.push(2);
  for (let number = from; number <= to; number += 1) shown.push(number);
  if (to < pageCount - 2) shown.push(null);
  else if (to === pageCount - 2) shown.push(pageCount - 1);
  if (to < pageCount) shown.push(pageCount);
  return shown;
}
