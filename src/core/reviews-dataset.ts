// The `/reviews.json` serializer: the dataset exactly as `JSON.stringify({schema_version, business,
// aggregate_rating, reviews})` would write it, plus the byte range of every review's record inside
// it, so the server can answer searches with slices of these bytes. Pure and deterministic.
import {
  computeAggregateRating,
  type AggregateRating,
  type Business,
  type Review,
} from './review.ts';

export interface SerializedReviews {
  json: string;
  aggregate: AggregateRating;
  /** Byte offsets of each record inside the JSON's UTF-8 bytes: start0, end0, start1, end1, … */
  recordOffsets: number[];
}

/** `reviews` must be newest first. */
export function serializeReviewsDataset(
  business: Business,
  reviews: readonly Review[],
): SerializedReviews {
  const aggregate = computeAggregateRating(reviews);
  const head = `{"schema_version":"1.0.0","business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate)},"reviews":[`;
  const parts: string[] = [head];
  const recordOffsets: number[] = [];
  let offset = Buffer.byteLength(head);
  reviews.forEach((review, index) => {
    const record = JSON.stringify(review);
    if (index > 0) {
      parts.push(',');
      offset += 1;
    }
    parts.push(record);
    const length = Buffer.byteLength(record);
    recordOffsets.push(offset, offset + length);
    offset += length;
  });
  parts.push(']}');
  return { json: parts.join(''), aggregate, recordOffsets };
}
