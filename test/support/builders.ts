// Small builders for test records: a review or the business with overrides, never a shared
// mutable fixture.
import { BusinessSchema, ReviewSchema, type Business, type Review } from '../../src/core/review.ts';

let counter = 0;

/** A minimal valid review; each call gets a fresh id unless one is given. */
export function makeReview(overrides: Partial<Review> = {}): Review {
  counter += 1;
  const id = overrides.id ?? `review-${String(counter).padStart(4, '0')}`;
  return {
    id,
    url: `https://reviews.test/reviews/${id}/`,
    rating: 5,
    date: '2024-01-01',
    title: null,
    text: 'Good work.',
    language: 'en',
    author: { name: 'A. B.', location: null },
    verified: true,
    verification: { method: 'job_record_match', verified_on: null },
    source: { platform: 'google', url: null },
    technicians: [],
    service_ids: [],
    service_area_id: null,
    owner_reply: null,
    updated: overrides.date ?? '2024-01-01',
    ...overrides,
  };
}
/** A review with every field filled (title, location, technician, service, area), validated. */
export function makeDetailedReview(overrides: Partial<Review> = {}): Review {
  const id = overrides.id ?? 'r-001';
  return ReviewSchema.parse({
    id,
    url: `https://reviews.summit-roofing.example/reviews/${id}/`,
    rating: 5,
    date: '2024-05-01',
    title: 'Fixed the leak in a day',
    text: 'Ana found the leak and fixed it the same afternoon.',
    language: 'en',
    author: { name: 'Pat Doe', location: 'Denver, CO' },
    verified: true,
    verification: { method: 'job_record_match', verified_on: '2024-05-02' },
    source: { platform: 'direct', url: null },
    technicians: ['Ana López'],
    service_ids: ['roof-repair'],
    service_area_id: 'denver',
    owner_reply: null,
    updated: overrides.date ?? '2024-05-01',
    ...overrides,
  });
}

/**
 * A valid business (validated), fresh on each call: Summit Roofing of Denver, whose technician,
 * service and area are the ones makeDetailedReview names.
 */
export function makeBusiness(overrides: Partial<Business> = {}): Business {
  return BusinessSchema.parse({
    name: 'Summit Roofing',
    founded_year: 1998,
    contact: { phone: '+1 303 555 0100', website: 'https://www.summit-roofing.example/' },
    address: {
      street_address: '1 Main St',
      locality: 'Denver',
      region: 'CO',
      postal_code: '80202',
      country_code: 'US',
    },
    timezone: 'America/Denver',
    services: [
      { id: 'roof-repair', name: 'Roof repair' },
      { id: 'gutters', name: 'Gutters & downspouts' },
    ],
    technicians: [{ id: 'ana-lopez', name: 'Ana López' }],
    service_areas: [{ id: 'denver', name: 'Denver' }],
    ...overrides,
  });
}
