// What a review refers to must exist: its id (the file name) is well formed and no other review
// has it, and every technician, service and area it names is one business.json defines.
import { SlugSchema, type Business } from '../core/review.ts';
import { closestMatch, type FieldProblem } from './problems.ts';

const REVIEW_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A check for review ids met in file order: the problem with `id`, if any. A well-formed id is
 * remembered, so the second file with it is the duplicate.
 */
export function createReviewIdCheck(): (id: string, file: string) => string | undefined {
  const seen = new Map<string, string>();
  return (id, file) => {
    if (!REVIEW_ID.test(id)) {
      return `file name must be a kebab-case id (a-z, 0-9, -) followed by .md; "${id}" is not`;
    }
    const earlier = seen.get(id);
    if (earlier) return `duplicate review id "${id}" (also ${earlier})`;
    seen.set(id, file);
    return undefined;
  };
}

export interface BusinessIds {
  /** Technician id → the canonical name a published review shows. */
  technicianNames: ReadonlyMap<string, string>;
  serviceIds: ReadonlySet<string>;
  areaIds: ReadonlySet<string>;
}

export function businessIds(business: Business): BusinessIds {
  return {
    technicianNames: new Map(business.technicians.map((t) => [t.id, t.name])),
    serviceIds: new Set(business.services.map((s) => s.id)),
    areaIds: new Set(business.service_areas.map((a) => a.id)),
  };
}

function isWellFormedId(id: unknown): id is string {
  return typeof id === 'string' && SlugSchema.safeParse(id).success;
}

/** Each well-formed id of a front matter list with its index (malformed ones are the schema's). */
function wellFormedIds(list: unknown): [id: string, index: number][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((id: unknown, index) => (isWellFormedId(id) ? [[id, index]] : []));
}

/** An id business.json does not define, with the one meant when a known id is a typo away. */
function unknownIdMessage(kind: string, id: string, known: ReadonlySet<string>): string {
  const near = closestMatch(id, [...known]);
  return `unknown ${kind} id "${id}"${near ? ` (did you mean "${near}"?)` : ''}; known ids: ${[...known].join(', ')}`;
}

function unknownIds(
  list: unknown,
  field: string,
  kind: string,
  known: ReadonlySet<string>,
): FieldProblem[] {
  return wellFormedIds(list)
    .filter(([id]) => !known.has(id))
    .map(([id, index]) => ({
      field: `${field}.${index}`,
      message: unknownIdMessage(kind, id, known),
    }));
}

/**
 * The technicians, services and area a review's raw front matter names that business.json does
 * not define. Read from the raw front matter so they are reported even when other fields fail.
 */
export function referenceProblems(frontMatter: unknown, ids: BusinessIds): FieldProblem[] {
  const raw = typeof frontMatter === 'object' && frontMatter !== null ? frontMatter : {};
  const fields = raw as Record<string, unknown>;
  const { technicianNames, serviceIds, areaIds } = ids;
  const technicianIds = new Set(technicianNames.keys());
  const problems = [
    ...unknownIds(fields['technicians'], 'technicians', 'technician', technicianIds),
    ...unknownIds(fields['services'], 'services', 'service', serviceIds),
  ];
  const area = fields['service_area'];
  if (isWellFormedId(area) && !areaIds.has(area)) {
    problems.push({
      field: 'service_area',
      message: unknownIdMessage('service area', area, areaIds),
    });
  }
  return problems;
}
