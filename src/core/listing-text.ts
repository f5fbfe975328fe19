// The meta description of a listing page.
import type { ListingPage } from './listing.ts';
import type { Business } from './review.ts';

export function reviewTagline(business: Business, total: number, listing: ListingPage): string {
  const where = `${business.address.locality}, ${business.address.region}`;
  if (total === 0) return `Verified customer reviews of ${business.name}, ${where}.`;
  const last = listing.firstPosition + listing.reviews.length - 1;
  return `Verified customer reviews of ${business.name}, ${where}: reviews ${listing.firstPosition} to ${last} of ${total}, newest first.`;
}
