// Deterministic synthetic content for the benchmark: N reviews of the business in content/, as the
// content files the build reads (business.json and insights/ copied, reviews/<id>.md generated).
// Review i depends only on (seed, i), so a larger N is a superset of a smaller one.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom, type Random } from './prng.ts';
import {
  AREA_TOWNS,
  CLOSINGS,
  DETAILS,
  FIRST_NAMES,
  HOMES,
  JOBS,
  LAST_INITIALS,
  LEAK_ASIDES,
  LEAK_TITLES,
  MATERIALS,
  NON_LEAK_POOLS,
  OPENINGS,
  REPLIES,
  SEASONS,
  TECH_LINES,
  TITLES,
  WEATHER,
  type Tone,
} from './phrases.ts';

/** Bump when the output format changes in a way the source hash would not catch. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 'summit-ridge-bench-1';
/** The newest review date; reviews span the eight years before it. */
export const END_DATE = '2026-11-15';
export const YEARS = 8;
/** Share of reviews whose title or text mentions "leak". */
export const LEAK_SHARE = 0.05;

const DAY_MS = 86_400_000;
const END_MS = Date.parse(`${END_DATE}T00:00:00Z`);
const START_MS =
  Date.parse(`${Number(END_DATE.slice(0, 4)) - YEARS}${END_DATE.slice(4)}T00:00:00Z`) + DAY_MS;
const SPAN_DAYS = Math.round((END_MS - START_MS) / DAY_MS);

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BenchTechnician {
  id: string;
  name: string;
  aliases?: string[] | undefined;
}

export interface BenchBusiness {
  services: { id: string; name: string }[];
  technicians: BenchTechnician[];
  service_areas: { id: string; name: string }[];
}

export interface GeneratedReview {
  id: string;
  rating: 1 | 2 | 3 | 4 | 5;
  date: string;
  title: string | null;
  author: string;
  location: string | null;
  source: string;
  source_url: string | null;
  verification: string;
  verified_on: string;
  /** Technician ids (front matter). */
  technicians: string[];
  services: string[];
  service_area: string;
  reply: { date: string; text: string } | null;
  updated: string | null;
  text: string;
  mentionsLeak: boolean;
}

const RATINGS: readonly (readonly [GeneratedReview['rating'], number])[] = [
  [5, 66],
  [4, 18],
  [3, 6],
  [2, 4],
  [1, 6],
];

const SERVICE_WEIGHTS: Record<string, number> = {
  'roof-replacement': 26,
  'roof-repair': 20,
  'storm-damage': 15,
  'gutter-installation': 10,
  'roof-inspection': 11,
  'skylight-installation': 6,
  'flat-roofing': 6,
};

/** Who usually does which job; other technicians appear now and then. */
const PREFERRED_TECHNICIANS: Record<string, readonly string[]> = {
  'roof-replacement': ['mike-alvarez', 'tomas-reyes', 'dana-whitfield'],
  'roof-repair': ['marcus-bell', 'tomas-reyes', 'mike-alvarez'],
  'leak-repair': ['marcus-bell', 'marcus-bell', 'tomas-reyes'],
  'storm-damage': ['sam-pritchard', 'jen-kowalski', 'dana-whitfield'],
  'gutter-installation': ['kevin-oduya'],
  'skylight-installation': ['kevin-oduya', 'marcus-bell'],
  'roof-inspection': ['jen-kowalski'],
  'flat-roofing': ['ray-lindqvist'],
};

const SOURCES: readonly (readonly [string, number])[] = [
  ['google', 40],
  ['direct', 15],
  ['yelp', 12],
  ['facebook', 10],
  ['angi', 8],
  ['nextdoor', 7],
  ['bbb', 5],
  ['trustpilot', 3],
];

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  const ms = Math.min(END_MS, Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
  return isoDate(ms);
}

function slug(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function toneOf(rating: number): Tone {
  return rating >= 4 ? 'pos' : rating === 3 ? 'mixed' : 'neg';
}

interface Slots {
  area: string;
  first: string;
  tech?: string;
}

function fill(template: string, random: Random, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    switch (name) {
      case 'area':
        return slots.area;
      case 'first':
        return slots.first;
      case 'tech':
        return slots.tech ?? 'the technician';
      case 'home':
        return random.pick(HOMES);
      case 'weather':
        return random.pick(WEATHER);
      case 'season':
        return random.pick(SEASONS);
      case 'material':
        return random.pick(MATERIALS);
      case 'days':
        return String(random.int(1, 3));
      default:
        throw new Error(`unknown slot {${name}}`);
    }
  });
}

/** How a reviewer names a technician: the full name, an alias or the first name. */
function mention(technician: BenchTechnician, random: Random): string {
  const aliases = technician.aliases ?? [];
  const roll = random.next();
  if (roll < 0.4 || aliases.length === 0) return technician.name;
  if (roll < 0.85) return random.pick(aliases);
  return technician.name.split(' ')[0]!;
}

/** Review `index` of the synthetic set: depends only on (seed, index, business). */
export function generateReview(
  business: BenchBusiness,
  seed: string,
  index: number,
): GeneratedReview {
  const random = createRandom(`${seed}:${index}`);
  const technicians = new Map(business.technicians.map((t) => [t.id, t]));
  const serviceIds = new Set(business.services.map((s) => s.id));

  // Dates lean recent (the business grew): density grows like t^0.25 over the eight years.
  const offset = Math.min(SPAN_DAYS, Math.floor(random.next() ** 0.8 * (SPAN_DAYS + 1)));
  const date = isoDate(START_MS + offset * DAY_MS);
  const rating = random.weighted(RATINGS);
  const tone = toneOf(rating);
  const mentionsLeak = random.chance(LEAK_SHARE);

  const weighted = Object.entries(SERVICE_WEIGHTS).filter(([id]) => serviceIds.has(id));
  const services: string[] = [];
  if (mentionsLeak && serviceIds.has('leak-repair') && random.chance(0.7))
    services.push('leak-repair');
  else services.push(random.weighted(weighted));
  if (random.chance(0.2)) {
    const second = random.weighted(weighted);
    if (!services.includes(second)) services.push(second);
  }

  const technicianCount = random.weighted([
    [0, 25],
    [1, 55],
    [2, 20],
  ] as const);
  const preferred = services
    .flatMap((service) => PREFERRED_TECHNICIANS[service] ?? [])
    .filter((id) => technicians.has(id));
  const chosen: string[] = [];
  for (let k = 0; k < technicianCount * 3 && chosen.length < technicianCount; k += 1) {
    const id =
      preferred.length > 0 && random.chance(0.85)
        ? random.pick(preferred)
        : random.pick(business.technicians).id;
    if (!chosen.includes(id)) chosen.push(id);
  }

  const area = random.pick(business.service_areas).id;
  const town = random.pick(AREA_TOWNS[area] ?? [business.service_areas[0]!.name]);
  const first = random.pick(FIRST_NAMES);
  const initial = random.pick(LAST_INITIALS);
  const slots: Slots = { area: town, first };

  const sentences: string[] = [fill(random.pick(OPENINGS[tone]), random, slots)];
  for (const service of services) {
    const pool = JOBS[service];
    if (pool) sentences.push(fill(random.pick(pool), random, slots));
  }
  if (mentionsLeak && !services.includes('leak-repair'))
    sentences.push(fill(random.pick(LEAK_ASIDES), random, slots));
  for (const id of chosen) {
    const technician = technicians.get(id)!;
    sentences.push(
      fill(random.pick(TECH_LINES[tone]), random, { ...slots, tech: mention(technician, random) }),
    );
  }
  for (const detail of random.sample(DETAILS[tone], random.int(1, 3)))
    sentences.push(fill(detail, random, slots));
  if (random.chance(0.7)) sentences.push(fill(random.pick(CLOSINGS[tone]), random, slots));
  const split =
    sentences.length >= 5 && random.chance(0.5) ? random.int(2, sentences.length - 2) : 0;
  const text =
    split > 0
      ? `${sentences.slice(0, split).join(' ')}\n\n${sentences.slice(split).join(' ')}`
      : sentences.join(' ');

  let title: string | null = null;
  if (random.chance(0.9)) {
    const pool = mentionsLeak && random.chance(0.5) ? LEAK_TITLES[tone] : TITLES[tone];
    title = fill(random.pick(pool), random, slots);
  }
  const leakInText = /leak/i.test(text);
  if (leakInText !== mentionsLeak || (/leak/i.test(title ?? '') && !leakInText))
    throw new Error(`generator bug: review ${index} mentions "leak" where it should not`);

  const source = random.weighted(SOURCES);
  const hex = random.hex(12);
  const sourceUrl =
    source === 'google'
      ? `https://maps.google.example/place/summit-ridge-roofing-lakewood/reviews/${hex}`
      : source === 'yelp'
        ? `https://www.yelp.example/biz/summit-ridge-roofing-lakewood?hrid=${hex}`
        : source === 'facebook'
          ? `https://www.facebook.example/summitridgeroofing/posts/${hex}`
          : null;
  const verification =
    sourceUrl !== null && random.chance(0.8)
      ? 'platform_verified'
      : source === 'direct'
        ? random.pick(['invitation_link', 'job_record_match'])
        : random.pick(['job_record_match', 'manual_check']);

  const replyChance = tone === 'neg' ? 0.85 : tone === 'mixed' ? 0.5 : 0.2;
  const reply = random.chance(replyChance)
    ? {
        date: addDays(date, random.int(0, 10)),
        text: fill(random.pick(REPLIES[tone]), random, slots),
      }
    : null;
  const updated = random.chance(0.03) ? addDays(date, random.int(1, 60)) : null;

  return {
    id: `${date}-${slug(first)}-${initial.toLowerCase()}-${String(index).padStart(6, '0')}`,
    rating,
    date,
    title,
    author: `${first} ${initial}.`,
    location: random.chance(0.9) ? `${town}, CO` : null,
    source,
    source_url: sourceUrl,
    verification,
    verified_on: addDays(date, random.int(0, 14)),
    technicians: chosen,
    services,
    service_area: area,
    reply,
    updated,
    text,
    mentionsLeak,
  };
}

export function generateReviews(
  business: BenchBusiness,
  n: number,
  seed = DEFAULT_SEED,
): GeneratedReview[] {
  return Array.from({ length: n }, (_, index) => generateReview(business, seed, index));
}

/** The review as `content/reviews/<id>.md`: YAML front matter (JSON-quoted strings) and the text. */
export function renderReview(review: GeneratedReview): string {
  const q = (value: string) => JSON.stringify(value);
  const lines = ['---', `rating: ${review.rating}`, `date: ${q(review.date)}`];
  if (review.title !== null) lines.push(`title: ${q(review.title)}`);
  lines.push(`author: ${q(review.author)}`);
  if (review.location !== null) lines.push(`location: ${q(review.location)}`);
  lines.push(`source: ${review.source}`);
  if (review.source_url !== null) lines.push(`source_url: ${q(review.source_url)}`);
  lines.push(
    `verification: ${review.verification}`,
    `verified_on: ${q(review.verified_on)}`,
    `technicians: [${review.technicians.join(', ')}]`,
    `services: [${review.services.join(', ')}]`,
    `service_area: ${review.service_area}`,
  );
  if (review.reply !== null)
    lines.push('reply:', `  date: ${q(review.reply.date)}`, `  text: ${q(review.reply.text)}`);
  if (review.updated !== null) lines.push(`updated: ${q(review.updated)}`);
  lines.push('---', review.text, '');
  return lines.join('\n');
}

/** Hash of everything the generated files depend on: the generator's sources and the inputs. */
function sourceHash(sourceContentDir: string): string {
  const hash = createHash('sha256');
  for (const file of ['prng.ts', 'phrases.ts', 'generate.ts'])
    hash.update(readFileSync(path.join(here, file)));
  hash.update(readFileSync(path.join(sourceContentDir, 'business.json')));
  const insights = path.join(sourceContentDir, 'insights');
  if (existsSync(insights)) {
    for (const name of readdirSync(insights).sort()) {
      hash.update(name);
      hash.update(readFileSync(path.join(insights, name)));
    }
  }
  return hash.digest('hex');
}

export interface ContentSet {
  dir: string;
  business: BenchBusiness;
  reviews: GeneratedReview[];
  /** False when an identical set (same stamp) was already on disk. */
  generated: boolean;
  /** What the set was generated from (seed, N, generator and input hashes). */
  stamp: string;
  seconds: number;
}

const STAMP = '.bench-stamp.json';

/**
 * `dir` holds N reviews for `seed`: reused when its stamp matches, else written afresh (the stamp
 * last, so an interrupted run is regenerated). The records are returned in either case.
 */
export function ensureContent(options: {
  dir: string;
  n: number;
  seed?: string;
  sourceContentDir: string;
}): ContentSet {
  const started = performance.now();
  const seed = options.seed ?? DEFAULT_SEED;
  const business = JSON.parse(
    readFileSync(path.join(options.sourceContentDir, 'business.json'), 'utf8'),
  ) as BenchBusiness;
  const reviews = generateReviews(business, options.n, seed);
  const stamp = JSON.stringify({
    generator: GENERATOR_VERSION,
    seed,
    n: options.n,
    source: sourceHash(options.sourceContentDir),
  });
  const stampFile = path.join(options.dir, STAMP);
  const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : undefined;
  if (current === stamp) {
    return {
      dir: options.dir,
      business,
      reviews,
      generated: false,
      stamp,
      seconds: (performance.now() - started) / 1000,
    };
  }
  rmSync(options.dir, { recursive: true, force: true });
  mkdirSync(path.join(options.dir, 'reviews'), { recursive: true });
  cpSync(
    path.join(options.sourceContentDir, 'business.json'),
    path.join(options.dir, 'business.json'),
  );
  const insights = path.join(options.sourceContentDir, 'insights');
  if (existsSync(insights))
    cpSync(insights, path.join(options.dir, 'insights'), { recursive: true });
  for (const review of reviews)
    writeFileSync(path.join(options.dir, 'reviews', `${review.id}.md`), renderReview(review));
  writeFileSync(stampFile, stamp);
  return {
    dir: options.dir,
    business,
    reviews,
    generated: true,
    stamp,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Throws when a pool that must not mention "leak" does (the `query=leak` selectivity relies on it). */
export function checkPools(): void {
  for (const pool of NON_LEAK_POOLS)
    for (const phrase of pool)
      if (/leak/i.test(phrase)) throw new Error(`phrase mentions "leak" outside LEAK_*: ${phrase}`);
}
