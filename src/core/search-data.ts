// What the build prepares for search: the reviews dataset bytes with each record's byte range
// (reviews-dataset.ts), the filter columns, and the folded search text. The server opens these
// without parsing or re-serializing a single review (review-index.ts). Pure and deterministic.
import type { AggregateRating, Business, Review } from './review.ts';
import { serializeReviewsDataset } from './reviews-dataset.ts';
import { SEPARATOR } from './substring-index.ts';
import { foldText } from './text.ts';

/**
 * The search files' format and folding: a dist whose files say another version is refused (it was
 * built by other code; 4: the folded text maps ß, ł, ø, æ and the like to plain letters; 5: and
 * curly apostrophes and quotation marks to straight ones; 6: a review's title and text are each
 * followed by SEPARATOR).
 */
export const SEARCH_DATA_VERSION = 6;

export interface SearchColumns {
  version: typeof SEARCH_DATA_VERSION;
  business: Business;
  aggregate_rating: AggregateRating;
  /** Per review, newest first. */
  ids: string[];
  dates: string[];
  ratings: number[];
  /** Indexes into business.technicians / business.services. */
  technicians: number[][];
  services: number[][];
  /** Byte offsets of each record inside the reviews.json bytes: start0, end0, start1, end1, … */
  record_offsets: number[];
  /** Byte offsets of each review's text inside the folded text: n + 1 entries. */
  folded_offsets: number[];
}

export interface SearchData {
  /** The exact `/reviews.json` body. */
  reviewsJson: string;
  columns: SearchColumns;
  /**
   * Title and text of every review, case- and accent-folded, newest first, UTF-8, each followed by
   * SEPARATOR (a byte UTF-8 never uses, so no search needle can span two reviews, nor a title and
   * the text after it).
   */
  folded: Buffer;
}

/** Title (when there is one) and text as search sees them (case- and accent-insensitive). */
export function searchableParts(review: Pick<Review, 'title' | 'text'>): string[] {
  return (review.title ? [review.title, review.text] : [review.text]).map(foldText);
}

/**
 * The reviews dataset (reviews-dataset.ts) and what search needs beside it: the filter columns and
 * the folded text. `reviews` must be newest first.
 */
export function buildSearchData(business: Business, reviews: readonly Review[]): SearchData {
  const { json, aggregate, recordOffsets } = serializeReviewsDataset(business, reviews);
  const technicianIndex = new Map(business.technicians.map((t, i) => [t.name, i]));
  const serviceIndex = new Map(business.services.map((s, i) => [s.id, i]));
  const foldedParts: Buffer[] = [];
  const separator = Buffer.from([SEPARATOR]);
  const foldedOffsets: number[] = [0];
  let foldedOffset = 0;
  for (const review of reviews) {
    for (const part of searchableParts(review)) {
      const folded = Buffer.from(part, 'utf8');
      foldedParts.push(folded, separator);
      foldedOffset += folded.length + 1;
    }
    foldedOffsets.push(foldedOffset);
  }
  return {
    reviewsJson: json,
    folded: Buffer.concat(foldedParts),
    columns: {
      version: SEARCH_DATA_VERSION,
      business,
      aggregate_rating: aggregate,
      ids: reviews.map((review) => review.id),
      dates: reviews.map((review) => review.date),
      ratings: reviews.map((review) => review.rating),
      technicians: reviews.map((review) =>
        review.technicians.flatMap((name) => technicianIndex.get(name) ?? []),
      ),
      services: reviews.map((review) =>
        review.service_ids.flatMap((id) => serviceIndex.get(id) ?? []),
      ),
      record_offsets: recordOffsets,
      folded_offsets: foldedOffsets,
    },
  };
}
