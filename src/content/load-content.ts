// Reads and validates what the business commits under CONTENT_DIR (docs/decisions.md#content) into core types.
// Used by the build, `npm run validate-content` and the tests; every problem names file and field.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { z } from 'zod';
import {
  BusinessSchema,
  ReviewFrontMatterSchema,
  SlugSchema,
  compareNewestFirst,
  type Business,
  type Review,
} from '../core/review.ts';
import {
  InsightsEditorialSchema,
  FaqSchema,
  type InsightsEditorial,
} from '../core/insights/editorial.ts';
import type { Lexicon } from '../core/insights/lexicon.ts';
import { absoluteUrl, reviewPagePath } from '../core/site.ts';
import { readLexicon } from './load-lexicon.ts';

export interface ContentProblem {
  file: string;
  field: string;
  message: string;
}

export class ContentError extends Error {
  readonly problems: ContentProblem[];

  constructor(problems: ContentProblem[]) {
    super(
      `${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n` +
        problems
          .map((p) => `  ${p.file}${p.field ? ` › ${p.field}` : ''}: ${p.message}`)
          .join('\n'),
    );
    this.name = 'ContentError';
    this.problems = problems;
  }
}

export interface SkippedReview {
  file: string;
  reason: string;
}

export interface SiteContent {
  business: Business;
  /** Published (verified) reviews, newest first. */
  reviews: Review[];
  skipped: SkippedReview[];
  editorial: InsightsEditorial;
  /** The aspect lexicon, content/insights/lexicon.json (empty without the file). */
  lexicon: Lexicon;
}

export interface LoadContentOptions {
  contentDir: string;
  siteUrl: string;
}

// Dates are checked as written: YAML's timestamp type would turn `2023-02-30` into 2 March; the core schema keeps
// dates as the strings the business wrote, so the date schema can reject impossible ones.
// gray-matter also honours `---js` (it evals the block) and other languages named after the
// opening fence: front matter is YAML only, so those engines refuse instead of running code.
const refuseEngine = (language: string) => () => {
  throw new Error(`front matter must be YAML, not ${language} (remove "${language}" after ---)`);
};
const frontMatterOptions = {
  engines: {
    yaml: (source: string) => yaml.load(source, { schema: yaml.CORE_SCHEMA }) as object,
    javascript: refuseEngine('javascript'),
    json: refuseEngine('json'),
    coffee: refuseEngine('coffee'),
  },
};

function fieldOf(issuePath: readonly PropertyKey[]): string {
  return issuePath.map(String).join('.');
}

/** The keys a strict object schema allows at `issuePath` (through optionals, defaults, arrays). */
function knownKeysAt(schema: z.ZodType, issuePath: readonly PropertyKey[]): string[] {
  const unwrap = (node: unknown): unknown => {
    let current = node;
    while (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    }
    return current;
  };
  let node = unwrap(schema);
  for (const part of issuePath) {
    if (node instanceof z.ZodObject && typeof part === 'string') node = unwrap(node.shape[part]);
    else if (node instanceof z.ZodArray) node = unwrap(node.element);
    else return [];
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * zod issues as content problems. An unknown key (zod's `unrecognized_keys`, whose path is the
 * enclosing object) is reported at the key itself, with the closest known key as a suggestion.
 */
function problemsFromZod(
  schema: z.ZodType,
  error: z.ZodError,
  report: (field: string, message: string) => void,
): void {
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') {
      report(fieldOf(issue.path), issue.message);
      continue;
    }
    const known = knownKeysAt(schema, issue.path);
    for (const key of issue.keys) {
      const closest = known
        .map((candidate) => ({ candidate, distance: editDistance(key, candidate) }))
        .sort((a, b) => a.distance - b.distance)[0];
      const hint =
        closest && closest.distance <= 2
          ? `did you mean "${closest.candidate}"?`
          : `known keys: ${known.join(', ')}`;
      report(fieldOf([...issue.path, key]), `unknown key "${key}"; ${hint}`);
    }
  }
}

async function listMarkdown(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

type JsonFile = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'parsed'; value: unknown };

// A file whose JSON is literally `null` is parsed (and then fails its schema); only a syntax error
// is `invalid`, already reported here.
async function readJson(
  file: string,
  display: string,
  problems: ContentProblem[],
): Promise<JsonFile> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    return { kind: 'parsed', value: JSON.parse(source) as unknown };
  } catch (error) {
    problems.push({
      file: display,
      field: '',
      message: `is not valid JSON (${(error as Error).message})`,
    });
    return { kind: 'invalid' };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `check` for each well-formed id in a front matter list (malformed ones are the schema's). */
function checkIds(list: unknown, check: (id: string, index: number) => void): void {
  if (!Array.isArray(list)) return;
  list.forEach((id: unknown, index) => {
    if (typeof id === 'string' && SlugSchema.safeParse(id).success) check(id, index);
  });
}

function laterOf(a: string, b: string | undefined): string {
  return b !== undefined && b > a ? b : a;
}

export async function loadContent({
  contentDir,
  siteUrl,
}: LoadContentOptions): Promise<SiteContent> {
  const problems: ContentProblem[] = [];
  const display = (file: string) => path.relative(process.cwd(), file) || file;

  const businessFile = path.join(contentDir, 'business.json');
  const businessSource = await readJson(businessFile, display(businessFile), problems);
  if (businessSource.kind === 'missing') {
    throw new ContentError([
      {
        file: display(businessFile),
        field: '',
        message: 'is missing: the business metadata is required',
      },
    ]);
  }
  if (businessSource.kind === 'invalid') throw new ContentError(problems);
  const businessResult = BusinessSchema.safeParse(businessSource.value);
  if (!businessResult.success) {
    problemsFromZod(BusinessSchema, businessResult.error, (field, message) =>
      problems.push({ file: display(businessFile), field, message }),
    );
    throw new ContentError(problems);
  }
  const business = businessResult.data;
  const technicianNames = new Map(business.technicians.map((t) => [t.id, t.name]));
  const serviceIds = new Set(business.services.map((s) => s.id));
  const areaIds = new Set(business.service_areas.map((a) => a.id));

  const reviews: Review[] = [];
  const skipped: SkippedReview[] = [];
  const seenIds = new Map<string, string>();
  const reviewsDir = path.join(contentDir, 'reviews');
  for (const file of await listMarkdown(reviewsDir)) {
    const shown = display(file);
    const report = (field: string, message: string) =>
      problems.push({ file: shown, field, message });
    const id = path.basename(file, '.md');
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) {
      report('', `file name must be a kebab-case id (a-z, 0-9, -) followed by .md; "${id}" is not`);
      continue;
    }
    const earlier = seenIds.get(id);
    if (earlier) {
      report('', `duplicate review id "${id}" (also ${earlier})`);
      continue;
    }
    seenIds.set(id, shown);

    let parsed: matter.GrayMatterFile<string>;
    try {
      // gray-matter caches by input string; `{}` options defeat it so each file is parsed anew.
      parsed = matter(await readFile(file, 'utf8'), { ...frontMatterOptions });
    } catch (error) {
      report('front matter', `is not valid YAML (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    // Every problem in the file is reported at once: the schema's, the missing text, and the
    // cross-references of whatever ids are well-formed, even when other fields are wrong.
    const raw: Record<string, unknown> = isRecord(parsed.data) ? parsed.data : {};
    const result = ReviewFrontMatterSchema.safeParse(parsed.data);
    let ok = result.success;
    const fail = (field: string, message: string) => {
      report(field, message);
      ok = false;
    };
    if (!result.success) problemsFromZod(ReviewFrontMatterSchema, result.error, report);
    const text = parsed.content.trim();
    if (text.length === 0)
      fail('text', 'the review text (the body after the front matter) is missing');
    checkIds(raw['technicians'], (tech, index) => {
      if (!technicianNames.has(tech)) {
        fail(
          `technicians.${index}`,
          `unknown technician id "${tech}"; known ids: ${[...technicianNames.keys()].join(', ')}`,
        );
      }
    });
    checkIds(raw['services'], (service, index) => {
      if (!serviceIds.has(service)) {
        fail(
          `services.${index}`,
          `unknown service id "${service}"; known ids: ${[...serviceIds].join(', ')}`,
        );
      }
    });
    const area = raw['service_area'];
    if (typeof area === 'string' && SlugSchema.safeParse(area).success && !areaIds.has(area)) {
      fail(
        'service_area',
        `unknown service area id "${area}"; known ids: ${[...areaIds].join(', ')}`,
      );
    }
    if (!result.success) continue;
    const fm = result.data;
    if (fm.updated !== undefined && fm.updated < fm.date)
      fail('updated', `must be on or after date (${fm.date})`);
    if (fm.reply !== undefined && fm.reply.date < fm.date)
      fail('reply.date', `must be on or after date (${fm.date})`);
    if (!ok) continue;

    if (fm.verification === undefined) {
      skipped.push({
        file: shown,
        reason: 'no verification: unverified reviews are not published',
      });
      continue;
    }
    reviews.push({
      id,
      url: absoluteUrl(siteUrl, reviewPagePath(id)),
      rating: fm.rating,
      date: fm.date,
      title: fm.title?.trim() || null,
      text,
      language: fm.language,
      author: { name: fm.author.trim(), location: fm.location?.trim() || null },
      verified: true,
      verification: { method: fm.verification, verified_on: fm.verified_on ?? null },
      source: { platform: fm.source, url: fm.source_url ?? null },
      technicians: fm.technicians.map((tech) => technicianNames.get(tech)!),
      service_ids: fm.services,
      service_area_id: fm.service_area ?? null,
      owner_reply: fm.reply ? { date: fm.reply.date, text: fm.reply.text.trim() } : null,
      updated: laterOf(laterOf(fm.date, fm.updated), fm.reply?.date),
    });
  }

  const editorial = await loadEditorial(path.join(contentDir, 'insights'), display, problems);
  const lexicon = await readLexicon(contentDir, display, problems);
  if (problems.length > 0) throw new ContentError(problems);
  reviews.sort(compareNewestFirst);
  return { business, reviews, skipped, editorial, lexicon };
}

const SummaryFrontMatterSchema = z.object({ title: z.string().trim().min(1) }).strict();

async function loadEditorial(
  dir: string,
  display: (file: string) => string,
  problems: ContentProblem[],
): Promise<InsightsEditorial> {
  const faqFile = path.join(dir, 'faq.json');
  const faqSource = await readJson(faqFile, display(faqFile), problems);
  const faq =
    faqSource.kind === 'parsed'
      ? FaqSchema.safeParse(faqSource.value)
      : { success: true as const, data: [] };
  if (!faq.success) {
    problemsFromZod(FaqSchema, faq.error, (field, message) =>
      problems.push({ file: display(faqFile), field, message }),
    );
  }

  const summaryFile = path.join(dir, 'summary.md');
  let summary: InsightsEditorial['summary'] = null;
  try {
    const parsed = matter(await readFile(summaryFile, 'utf8'), { ...frontMatterOptions });
    const result = SummaryFrontMatterSchema.safeParse(parsed.data);
    const text = parsed.content.trim();
    if (!result.success) {
      problemsFromZod(SummaryFrontMatterSchema, result.error, (field, message) =>
        problems.push({ file: display(summaryFile), field, message }),
      );
    } else if (text.length === 0) {
      problems.push({
        file: display(summaryFile),
        field: 'text',
        message: 'the summary text (after the front matter) is missing',
      });
    } else {
      summary = { title: result.data.title, text };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({
        file: display(summaryFile),
        field: 'front matter',
        message: `cannot be read (${(error as Error).message.split('\n')[0]})`,
      });
    }
  }
  return InsightsEditorialSchema.parse({ faq: faq.success ? faq.data : [], summary });
}
