// Entities of the insights dataset: technicians, services and service areas, each with how many
// published reviews mention it (front matter is the source) and their average rating.
import { z } from 'zod';
import { roundedMean, type Business, type Review } from '../review.ts';

export const EntityStatsSchema = z.object({
  id: z.string(),
  name: z.string(),
  mention_count: z.number().int().meta({ description: 'published reviews that name this entity' }),
  average_rating: z
    .number()
    .nullable()
    .meta({ description: 'mean rating of those reviews, 2 decimals' }),
});

export const EntitiesSchema = z.object({
  technicians: z.array(EntityStatsSchema.extend({ role: z.string().nullable() })),
  services: z.array(EntityStatsSchema),
  service_areas: z.array(EntityStatsSchema),
});

export type Entities = z.infer<typeof EntitiesSchema>;

interface Tally {
  count: number;
  sum: number;
}

function tallyBy(
  reviews: readonly Review[],
  keysOf: (review: Review) => readonly string[],
): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const review of reviews) {
    for (const key of new Set(keysOf(review))) {
      const tally = tallies.get(key) ?? { count: 0, sum: 0 };
      tally.count += 1;
      tally.sum += review.rating;
      tallies.set(key, tally);
    }
  }
  return tallies;
}

function stats(id: string, name: string, tally: Tally | undefined) {
  return {
    id,
    name,
    mention_count: tally?.count ?? 0,
    average_rating: roundedMean(tally?.sum ?? 0, tally?.count ?? 0),
  };
}

/** Entities in the order the business lists them, so the bytes only move when the data does. */
export function computeEntities(business: Business, reviews: readonly Review[]): Entities {
  const byTechnician = tallyBy(reviews, (review) => review.technicians);
  const byService = tallyBy(reviews, (review) => review.service_ids);
  const byArea = tallyBy(reviews, (review) =>
    review.service_area_id ? [review.service_area_id] : [],
  );
  return {
    technicians: business.technicians.map((t) => ({
      ...stats(t.id, t.name, byTechnician.get(t.name)),
      role: t.role ?? null,
    })),
    services: business.services.map((s) => stats(s.id, s.name, byService.get(s.id))),
    service_areas: business.service_areas.map((a) => stats(a.id, a.name, byArea.get(a.id))),
  };
}
