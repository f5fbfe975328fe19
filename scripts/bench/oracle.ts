// The benchmark's independent answers: what search and since must return, computed by a plain scan
// of reviews.json (no index, no shared code with src/core/search.ts), so every answer a target
// gives can be checked before it is timed.

export interface OracleReview {
  id: string;
  rating: number;
  date: string;
  title: string | null;
  text: string;
  /** Canonical technician names, as in reviews.json. */
  technicians: string[];
  service_ids?: string[];
}

export interface OracleTechnician {
  id: string;
  name: string;
  aliases?: string[] | undefined;
}

export interface OracleQuery {
  rating?: number;
  min_rating?: number;
  since?: string;
  until?: string;
  query?: string;
  mentions_technician?: string;
  mentions_service?: string;
  limit: number;
}

export interface OracleAnswer {
  total: number;
  /** Ids of the returned reviews (at most `limit`), newest first. */
  ids: string[];
}

/** Case- and accent-insensitive form: decomposed, combining marks (U+0300–U+036F) removed. */
export function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

// Folded title and text per review object, so many queries over one dataset fold each text once.
const foldedTexts = new WeakMap<OracleReview, { title: string | null; text: string }>();

function foldedOf(review: OracleReview): { title: string | null; text: string } {
  let found = foldedTexts.get(review);
  if (!found) {
    found = { title: review.title === null ? null : fold(review.title), text: fold(review.text) };
    foldedTexts.set(review, found);
  }
  return found;
}

/** Newest first: date descending, then id ascending (code-unit order). */
export function newestFirst(a: OracleReview, b: OracleReview): number {
  if (a.date !== b.date) return a.date > b.date ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The canonical name a technician id, name or alias (any case, any accents) refers to. */
export function technicianName(
  technicians: readonly OracleTechnician[],
  given: string,
): string | undefined {
  const wanted = fold(given.trim());
  for (const technician of technicians) {
    const names = [technician.id, technician.name, ...(technician.aliases ?? [])];
    if (names.some((name) => fold(name) === wanted)) return technician.name;
  }
  return undefined;
}

export function matches(
  review: OracleReview,
  query: OracleQuery,
  technicians: readonly OracleTechnician[],
): boolean {
  if (query.rating !== undefined && review.rating !== query.rating) return false;
  if (query.min_rating !== undefined && review.rating < query.min_rating) return false;
  if (query.since !== undefined && review.date < query.since) return false;
  if (query.until !== undefined && review.date > query.until) return false;
  if (query.mentions_technician !== undefined) {
    const name = technicianName(technicians, query.mentions_technician);
    if (name === undefined || !review.technicians.includes(name)) return false;
  }
  if (query.mentions_service !== undefined && !review.service_ids?.includes(query.mentions_service))
    return false;
  if (query.query !== undefined) {
    const needle = fold(query.query);
    const folded = foldedOf(review);
    const inTitle = folded.title !== null && folded.title.includes(needle);
    if (!inTitle && !folded.text.includes(needle)) return false;
  }
  return true;
}

export function expectedSearch(
  reviews: readonly OracleReview[],
  technicians: readonly OracleTechnician[],
  query: OracleQuery,
): OracleAnswer {
  const hits = reviews.filter((review) => matches(review, query, technicians)).sort(newestFirst);
  return { total: hits.length, ids: hits.slice(0, query.limit).map((review) => review.id) };
}

export function expectedSince(reviews: readonly OracleReview[], since: string): OracleAnswer {
  const hits = reviews.filter((review) => review.date >= since).sort(newestFirst);
  return { total: hits.length, ids: hits.map((review) => review.id) };
}
