// Entities of the insights dataset: technicians, services and service areas, each with how many
// published reviews mention it (front matter is the source), their average rating and what those
// reviews say per aspect.
import { z } from 'zod';
import { roundedMean, type Business, type Review } from '../review.ts';
import type { ReviewAnalysis } from './analysis.ts';
import { AspectTallySchema, tallyAspects, type AspectTally } from './aspect-stats.ts';
import { ASPECT_IDS, type AspectId } from './lexicon.ts';

export const EntityAspectsSchema = z
  .object(
    Object.fromEntries(ASPECT_IDS.map((id) => [id, AspectTallySchema.optional()])) as Record<
      AspectId,
      z.ZodOptional<typeof AspectTallySchema>
    >,
  )
  .meta({ description: 'per aspect that those reviews speak of, their polarity split and score' });

export const EntityStatsSchema = z.object({
  id: z.string(),
  name: z.string(),
  mention_count: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'published reviews that name this entity' }),
  average_rating: z
    .number()
    .nullable()
    .meta({ description: 'mean rating of those reviews, 2 decimals' }),
  aspects: EntityAspectsSchema,
});

export const EntitiesSchema = z.object({
  technicians: z.array(EntityStatsSchema.extend({ role: z.string().nullable() })),
  services: z.array(EntityStatsSchema),
  service_areas: z.array(EntityStatsSchema),
});

export type Entities = z.infer<typeof EntitiesSchema>;

function groupBy(
  analyses: readonly ReviewAnalysis[],
  keysOf: (review: Review) => readonly string[],
): Map<string, ReviewAnalysis[]> {
  const groups = new Map<string, ReviewAnalysis[]>();
  for (const analysis of analyses) {
    for (const key of new Set(keysOf(analysis.review))) {
      const group = groups.get(key) ?? [];
      group.push(analysis);
      groups.set(key, group);
    }
  }
  return groups;
}

function stats(id: string, name: string, group: readonly ReviewAnalysis[] = []) {
  const tallies = tallyAspects(group);
  const aspects: Partial<Record<AspectId, AspectTally>> = {};
  for (const aspect of ASPECT_IDS)
    if (tallies[aspect].review_count > 0) aspects[aspect] = tallies[aspect];
  return {
    id,
    name,
    mention_count: group.length,
    average_rating: roundedMean(
      group.reduce((sum, a) => sum + a.review.rating, 0),
      group.length,
    ),
    aspects,
  };
}

/** Entities in the order the business lists them, so the bytes only move when the data does. */
export function computeEntities(business: Business, analyses: readonly ReviewAnalysis[]): Entities {
  const byTechnician = groupBy(analyses, (review) => review.technicians);
  const byService = groupBy(analyses, (review) => review.service_ids);
  const byArea = groupBy(analyses, (review) =>
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
