// A seeded mix of distinct searches, the kind a crawler or an assistant exploring the reviews sends:
// one query word drawn across the whole frequency range (log-uniform over the words ranked by how
// many reviews use them, so both "the" and a word used once appear), two-word phrases, technician +
// min_rating + since, rating + query, date ranges, service + query; limit 1 to 100. Every query is a
// distinct URL.
import { fold, type OracleQuery, type OracleReview, type OracleTechnician } from './oracle.ts';
import { createRandom, type Random } from './prng.ts';

export const MIX_KINDS = [
  'word',
  'phrase',
  'technician+min_rating+since',
  'rating+query',
  'date range',
  'service+query',
] as const;

export interface MixQuery {
  kind: (typeof MIX_KINDS)[number];
  query: OracleQuery;
  path: string;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function searchPath(query: OracleQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `/api/reviews/search?${params.toString().replace(/\+/g, '%20')}`;
}

function wordsOf(review: OracleReview): string[] {
  return fold(`${review.title ?? ''} ${review.text}`).match(WORD) ?? [];
}

/** Words ranked by the number of reviews using them (most first; ties alphabetically). */
function rankedWords(reviews: readonly OracleReview[], random: Random): string[] {
  const counts = new Map<string, number>();
  const sample = reviews.length <= 5000 ? reviews : reviews.filter(() => random.chance(0.05));
  for (const review of sample)
    for (const word of new Set(wordsOf(review))) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
}

export function searchMix(options: {
  reviews: readonly OracleReview[];
  technicians: readonly OracleTechnician[];
  services: readonly string[];
  count: number;
  seed: string;
}): MixQuery[] {
  const { reviews, technicians, services, count } = options;
  const random = createRandom(`${options.seed}:search-mix`);
  const words = rankedWords(reviews, random);
  const dates = reviews.map((review) => review.date).sort();
  const pick = <T>(items: readonly T[]): T => items[random.int(0, items.length - 1)]!;
  const word = () =>
    words[Math.min(words.length - 1, Math.floor(words.length ** random.next()) - 1)]!;
  const phrase = () => {
    const found = wordsOf(pick(reviews));
    if (found.length < 2) return word();
    const at = random.int(0, found.length - 2);
    return `${found[at]} ${found[at + 1]}`;
  };
  const date = () => pick(dates);
  const limit = () => random.int(1, 100);
  const technicianName = () => {
    const technician = pick(technicians);
    return pick([technician.name, technician.id, ...(technician.aliases ?? [])]);
  };

  const make = (kind: MixQuery['kind']): OracleQuery => {
    switch (kind) {
      case 'word':
        return { query: word(), limit: limit() };
      case 'phrase':
        return { query: phrase(), limit: limit() };
      case 'technician+min_rating+since':
        return {
          mentions_technician: technicianName(),
          min_rating: random.int(1, 5),
          since: date(),
          limit: limit(),
        };
      case 'rating+query':
        return { rating: random.int(1, 5), query: word(), limit: limit() };
      case 'date range': {
        const [since, until] = [date(), date()].sort() as [string, string];
        return { since, until, limit: limit() };
      }
      case 'service+query':
        return { mentions_service: pick(services), query: word(), limit: limit() };
    }
  };

  const seen = new Set<string>();
  const mix: MixQuery[] = [];
  for (let attempt = 0; mix.length < count && attempt < count * 20; attempt += 1) {
    const kind = MIX_KINDS[attempt % MIX_KINDS.length]!;
    if (kind === 'technician+min_rating+since' && technicians.length === 0) continue;
    if (kind === 'service+query' && services.length === 0) continue;
    const query = make(kind);
    const path = searchPath(query);
    if (seen.has(path)) continue;
    seen.add(path);
    mix.push({ kind, query, path });
  }
  if (mix.length < count)
    throw new Error(`only ${mix.length} distinct searches could be drawn (wanted ${count})`);
  return mix;
}
