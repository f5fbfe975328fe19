// Reads what the business commits under CONTENT_DIR, parsed but not yet checked: business.json,
// every reviews/**/*.md, the insights FAQ and summary. The only part of loading that touches
// the disk; a file that cannot be parsed is returned as such, for the checks to report.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';

export type JsonSource =
  { kind: 'missing' } | { kind: 'invalid'; message: string } | { kind: 'parsed'; value: unknown };

export type MarkdownSource =
  | { kind: 'unreadable'; missing: boolean; message: string }
  | { kind: 'parsed'; data: unknown; text: string };

export interface ReviewSource {
  file: string;
  /** The review id: the file name without `.md`, whatever folder it sits in. */
  id: string;
  source: MarkdownSource;
}

export interface ContentSources {
  businessFile: string;
  business: JsonSource;
  /** Sorted by path. */
  reviews: ReviewSource[];
  faqFile: string;
  faq: JsonSource;
  summaryFile: string;
  summary: MarkdownSource;
}

// Dates are checked as written: YAML's timestamp type would turn `2023-02-30` into 2 March; the
// core schema keeps dates as the strings the business wrote, so the date schema can reject
// impossible ones. gray-matter also honours `---js` (it evals the block) and other languages
// named after the opening fence: front matter is YAML only, so those engines refuse instead of
// running code.
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

/** Whether a file-system error says the file or directory does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A JSON file; only a syntax error is `invalid` (a file holding `null` is parsed). */
export async function readJson(file: string): Promise<JsonSource> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
  try {
    return { kind: 'parsed', value: JSON.parse(source) as unknown };
  } catch (error) {
    return { kind: 'invalid', message: (error as Error).message };
  }
}

/** A markdown file with YAML front matter; `text` is the trimmed body after it. */
export async function readMarkdown(file: string): Promise<MarkdownSource> {
  try {
    // gray-matter caches by input string; `{}` options defeat it so each file is parsed anew.
    const parsed = matter(await readFile(file, 'utf8'), { ...frontMatterOptions });
    return { kind: 'parsed', data: parsed.data, text: parsed.content.trim() };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    return { kind: 'unreadable', missing: isMissing(error), message };
  }
}

async function listMarkdown(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

// One file at a time: a content folder may hold thousands of reviews, more than the open-file
// limit would allow at once.
async function readReviews(dir: string): Promise<ReviewSource[]> {
  const reviews: ReviewSource[] = [];
  for (const file of await listMarkdown(dir)) {
    reviews.push({ file, id: path.basename(file, '.md'), source: await readMarkdown(file) });
  }
  return reviews;
}

export async function readContent(contentDir: string): Promise<ContentSources> {
  const businessFile = path.join(contentDir, 'business.json');
  const faqFile = path.join(contentDir, 'insights', 'faq.json');
  const summaryFile = path.join(contentDir, 'insights', 'summary.md');
  const [business, reviews, faq, summary] = await Promise.all([
    readJson(businessFile),
    readReviews(path.join(contentDir, 'reviews')),
    readJson(faqFile),
    readMarkdown(summaryFile),
  ]);
  return { businessFile, business, reviews, faqFile, faq, summaryFile, summary };
}
