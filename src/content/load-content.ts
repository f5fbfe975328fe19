// Reads and validates what the business commits under CONTENT_DIR (DECISIONS §3) into core types.
// Used by the build, `npm run validate-content` and the tests; every problem names file and field.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { z } from 'zod';
import { toIssues } from '../core/errors.ts';
import { BusinessSchema, ReviewFrontMatterSchema, compareNewestFirst, type Business, type Review } from '../core/review.ts';
import { InsightsEditorialSchema, FaqSchema, type InsightsEditorial } from '../core/insights/editorial.ts';
import { absoluteUrl, reviewPagePath } from '../core/site.ts';

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
        problems.map((p) => `  ${p.file}${p.field ? ` › ${p.field}` : ''}: ${p.message}`).join('\n'),
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
}

export interface LoadContentOptions {
  contentDir: string;
  siteUrl: string;
}

// DECISIONS §3: YAML's timestamp type would turn `2023-02-30` into 2 March; the core schema keeps
// dates as the strings the business wrote, so the date schema can reject impossible ones.
const frontMatterOptions = {
  engines: { yaml: (source: string) => yaml.load(source, { schema: yaml.CORE_SCHEMA }) as object },
};

function fieldOf(issuePath: readonly (string | number)[]): string {
  return issuePath.join('.');
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

async function readJson(file: string, display: string, problems: ContentProblem[]): Promise<unknown> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    problems.push({ file: display, field: '', message: `is not valid JSON (${(error as Error).message})` });
    return null;
  }
}

function laterOf(a: string, b: string | undefined): string {
  return b !== undefined && b > a ? b : a;
}

export async function loadContent({ contentDir, siteUrl }: LoadContentOptions): Promise<SiteContent> {
  const problems: ContentProblem[] = [];
  const display = (file: string) => path.relative(process.cwd(), file) || file;

  const businessFile = path.join(contentDir, 'business.json');
  const businessSource = await readJson(businessFile, display(businessFile), problems);
  if (businessSource === undefined) {
    throw new ContentError([{ file: display(businessFile), field: '', message: 'is missing: the business metadata is required' }]);
  }
  const businessResult = BusinessSchema.safeParse(businessSource);
  if (!businessResult.success) {
    if (businessSource !== null) {
      for (const issue of toIssues(businessResult.error)) {
        problems.push({ file: display(businessFile), field: fieldOf(issue.path), message: issue.message });
      }
    }
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
    const report = (field: string, message: string) => problems.push({ file: shown, field, message });
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
    const result = ReviewFrontMatterSchema.safeParse(parsed.data);
    if (!result.success) {
      for (const issue of toIssues(result.error)) report(fieldOf(issue.path), issue.message);
      continue;
    }
    const fm = result.data;
    const text = parsed.content.trim();
    let ok = true;
    const fail = (field: string, message: string) => {
      report(field, message);
      ok = false;
    };
    if (text.length === 0) fail('text', 'the review text (the body after the front matter) is missing');
    fm.technicians.forEach((tech, index) => {
      if (!technicianNames.has(tech)) {
        fail(`technicians.${index}`, `unknown technician id "${tech}"; known ids: ${[...technicianNames.keys()].join(', ')}`);
      }
    });
    fm.services.forEach((service, index) => {
      if (!serviceIds.has(service)) {
        fail(`services.${index}`, `unknown service id "${service}"; known ids: ${[...serviceIds].join(', ')}`);
      }
    });
    if (fm.service_area !== undefined && !areaIds.has(fm.service_area)) {
      fail('service_area', `unknown service area id "${fm.service_area}"; known ids: ${[...areaIds].join(', ')}`);
    }
    if (fm.updated !== undefined && fm.updated < fm.date) fail('updated', `must be on or after date (${fm.date})`);
    if (fm.reply !== undefined && fm.reply.date < fm.date) fail('reply.date', `must be on or after date (${fm.date})`);
    if (!ok) continue;

    if (fm.verification === undefined) {
      skipped.push({ file: shown, reason: 'no verification: unverified reviews are not published' });
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
  if (problems.length > 0) throw new ContentError(problems);
  reviews.sort(compareNewestFirst);
  return { business, reviews, skipped, editorial };
}

async function loadEditorial(
  dir: string,
  display: (file: string) => string,
  problems: ContentProblem[],
): Promise<InsightsEditorial> {
  const faqFile = path.join(dir, 'faq.json');
  const faqSource = await readJson(faqFile, display(faqFile), problems);
  const faq = faqSource === undefined ? { success: true as const, data: [] } : FaqSchema.safeParse(faqSource);
  if (!faq.success && faqSource !== null) {
    for (const issue of toIssues(faq.error)) problems.push({ file: display(faqFile), field: fieldOf(issue.path), message: issue.message });
  }

  const summaryFile = path.join(dir, 'summary.md');
  let summary: InsightsEditorial['summary'] = null;
  try {
    const parsed = matter(await readFile(summaryFile, 'utf8'), { ...frontMatterOptions });
    const result = z
      .object({ title: z.string().trim().min(1) })
      .strict()
      .safeParse(parsed.data);
    const text = parsed.content.trim();
    if (!result.success) {
      for (const issue of toIssues(result.error)) problems.push({ file: display(summaryFile), field: fieldOf(issue.path), message: issue.message });
    } else if (text.length === 0) {
      problems.push({ file: display(summaryFile), field: 'text', message: 'the summary text (after the front matter) is missing' });
    } else {
      summary = { title: result.data.title, text };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({ file: display(summaryFile), field: 'front matter', message: `cannot be read (${(error as Error).message.split('\n')[0]})` });
    }
  }
  return InsightsEditorialSchema.parse({ faq: faq.success ? faq.data : [], summary });
}
