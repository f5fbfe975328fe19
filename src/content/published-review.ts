// A checked review file as the published record: the id from the file name, the URL on the
// site, technician ids as their canonical names, blank optional text as null, and `updated` the
// latest of the review, its edit and the owner's reply.
import type { Review, ReviewFrontMatter } from '../core/review.ts';
import { absoluteUrl, reviewPagePath } from '../core/site.ts';
import { withoutControlCharacters as clean } from './read-content.ts';

export interface VerifiedFrontMatter extends ReviewFrontMatter {
  verification: NonNullable<ReviewFrontMatter['verification']>;
}

function laterOf(a: string, b: string | undefined): string {
  return b !== undefined && b > a ? b : a;
}

/** The date a review last changed: written, edited or replied to. */
export function lastUpdated(fm: ReviewFrontMatter): string {
  return laterOf(laterOf(fm.date, fm.updated), fm.reply?.date);
}

export function toPublishedReview(
  review: { id: string; frontMatter: VerifiedFrontMatter; text: string },
  siteUrl: string,
  technicianNames: ReadonlyMap<string, string>,
): Review {
  const { id, frontMatter: fm, text } = review;
  return {
    id,
    url: absoluteUrl(siteUrl, reviewPagePath(id)),
    rating: fm.rating,
    date: fm.date,
    title: clean(fm.title ?? '').trim() || null,
    text,
    language: fm.language,
    author: { name: clean(fm.author).trim(), location: clean(fm.location ?? '').trim() || null },
    verified: true,
    verification: { method: fm.verification, verified_on: fm.verified_on ?? null },
    source: { platform: fm.source, url: fm.source_url ?? null },
    // An id listed twice is the same technician or service, published once.
    technicians: [...new Set(fm.technicians)].map((tech) => technicianNames.get(tech)!),
    service_ids: [...new Set(fm.services)],
    service_area_id: fm.service_area ?? null,
    owner_reply: fm.reply ? { date: fm.reply.date, text: clean(fm.reply.text).trim() } : null,
    updated: lastUpdated(fm),
  };
}
