// Reads what the business commits under CONTENT_DIR, parsed but not yet checked: business.json,
// every reviews/**/*.md, the insights FAQ and summary. The only part of loading that touches
// the disk; a file that cannot be parsed is returned as such, for the checks to report.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';

export type JsonSource =
  { kind: 'missing' } | { kind: 'invalid'; message: string } | { kind: 'parsed'; value: unknown };

export type MarkdownSource =
  /** `yaml`: the front matter did not parse; otherwise the file itself could not be read as text. */
  | { kind: 'unreadable'; missing: boolean; yaml: boolean; message: string }
  | {
      kind: 'parsed';
      data: unknown;
      text: string;
      /**
       * Where the front matter is: on the first line, as it must be; after blank lines or spaces
       * (where it is not read as front matter); or nowhere.
       */
      frontMatter?: 'first-line' | 'after-blank' | 'none';
    };

export interface ReviewSource {
  file: string;
  /** The review id: the file name without `.md`, whatever folder it sits in. */
  id: string;
  source: MarkdownSource;
}

/** A file under reviews/ that is not read as a review, and why (the build lists them). */
export interface SkippedFile {
  file: string;
  reason: string;
}

export interface ContentSources {
  businessFile: string;
  business: JsonSource;
  /** Sorted by path. */
  reviews: ReviewSource[];
  reviewsDir: string;
  /** Why the reviews folder could not be read at all (it is a file, say); undefined when it could. */
  reviewsProblem?: string | undefined;
  /** The reviews folder does not exist: no review is published. */
  reviewsMissing?: boolean;
  /** Files under reviews/ that look like reviews but are not read as one. */
  skippedFiles: SkippedFile[];
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

/** A file-system error as the end of "<file> …": what is wrong with the path, in words. */
export function unreadableReason(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EISDIR':
      return 'cannot be read: it is a folder, not a file';
    case 'ENOTDIR':
      return 'cannot be read: a part of its path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied';
    case 'ELOOP':
      return 'cannot be read: its symbolic links go round in a loop';
    default:
      return `cannot be read (${(error as Error).message.split('\n')[0]})`;
  }
}

/** C0 controls other than tab and newline, and DEL: invisible, and refused by XML and YAML. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/**
 * `text` without control characters: for strings the front matter writes with YAML escapes
 * ("\a"), which come back as the characters themselves.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}

/** Thrown for a file that is not read as content (not UTF-8 text, not a regular file, too big); the message ends "<file> …". */
class UnreadableContent extends Error {}

/**
 * The largest content file read. A review's text is at most 20,000 characters and business.json
 * lists a business; a bigger file is a mistake (a pasted dump, a disk image), not content.
 */
export const MAX_CONTENT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A content file's bytes, when it is a regular file (a symbolic link to one included) of at most
 * MAX_CONTENT_FILE_BYTES. A pipe or device is refused before it is opened: reading a pipe waits
 * for a writer that never comes, and a device like /dev/zero never ends.
 */
async function readContentFile(file: string): Promise<Uint8Array> {
  const info = await stat(file);
  if (info.isDirectory())
    throw Object.assign(new Error(`EISDIR: ${file}`), { code: 'EISDIR' } as const);
  if (!info.isFile())
    throw new UnreadableContent(
      'cannot be read: it is not a regular file (a device, socket or pipe)',
    );
  if (info.size > MAX_CONTENT_FILE_BYTES)
    throw new UnreadableContent(
      `is ${(info.size / 2 ** 20).toFixed(1)} MiB, more than a content file may be (${MAX_CONTENT_FILE_BYTES / 2 ** 20} MiB)`,
    );
  return readFile(file);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A content file's text as every part of the build reads it: UTF-8 (a BOM dropped), lines ending
 * in \n whatever the editor wrote (so a checkout with CRLF endings publishes the same bytes), and
 * no control characters (after the line endings are made \n, a stray \r is one).
 */
export function decodeContent(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new UnreadableContent('is UTF-16 text: save it as UTF-8');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new UnreadableContent(
      'is not UTF-8 text (saved as Latin-1 or Windows-1252, perhaps): save it as UTF-8',
    );
  }
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '');
}

/** A JSON file; a syntax error or an unreadable file is `invalid` (a file holding `null` is parsed). */
export async function readJson(file: string): Promise<JsonSource> {
  let source: string;
  try {
    source = decodeContent(await readContentFile(file));
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    if (error instanceof UnreadableContent) return { kind: 'invalid', message: error.message };
    return { kind: 'invalid', message: unreadableReason(error) };
  }
  try {
    // Escapes such as "\u0007" come back as the characters themselves: dropped as in the text.
    const value: unknown = JSON.parse(source, (_key, item: unknown) =>
      typeof item === 'string' ? withoutControlCharacters(item) : item,
    );
    return { kind: 'parsed', value };
  } catch (error) {
    return { kind: 'invalid', message: `is not valid JSON (${(error as Error).message})` };
  }
}

/** A markdown file with YAML front matter; `text` is the trimmed body after it. */
export async function readMarkdown(file: string): Promise<MarkdownSource> {
  let source: string;
  try {
    source = decodeContent(await readContentFile(file));
  } catch (error) {
    const message = error instanceof UnreadableContent ? error.message : unreadableReason(error);
    return { kind: 'unreadable', missing: isMissing(error), yaml: false, message };
  }
  try {
    // gray-matter caches by input string; `{}` options defeat it so each file is parsed anew.
    const parsed = matter(source, { ...frontMatterOptions });
    // A second BOM (the first is dropped on reading) is no blank: gray-matter skips it too.
    const start = source.replace(/^\uFEFF+/, '');
    const frontMatter = start.startsWith('---')
      ? 'first-line'
      : /^\s+---/.test(start)
        ? 'after-blank'
        : 'none';
    return { kind: 'parsed', data: parsed.data, text: parsed.content.trim(), frontMatter };
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]!;
    // A language after the fence that no engine reads ("---toml"): said as for the refused ones.
    const language = /^gray-matter engine "(.*)" is not registered$/.exec(first)?.[1];
    const message =
      language === undefined
        ? first
        : `front matter must be YAML, not ${language} (remove "${language}" after ---)`;
    return { kind: 'unreadable', missing: false, yaml: true, message };
  }
}

interface ListedReviews {
  files: string[];
  skipped: SkippedFile[];
  problem?: string;
  /** The folder does not exist (a business with no reviews yet, or a folder moved by mistake). */
  missing?: boolean;
}

/**
 * The review files under `dir`, sorted: every regular file named *.md, at any depth, a symbolic
 * link to one included. A name that looks like a review but is not read as one (*.MD, *.markdown,
 * a link to nothing, a folder or device named *.md) is listed as skipped, not dropped unseen.
 */
async function listReviewFiles(dir: string): Promise<ListedReviews> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if (isMissing(error)) {
      // "Reviews" beside a missing "reviews" is read on a case-insensitive disk (macOS, Windows)
      // and not on Linux, where a CI would publish no review at all.
      const name = path.basename(dir);
      const siblings = await readdir(path.dirname(dir)).catch(() => [] as string[]);
      const other = siblings.find((entry) => entry !== name && entry.toLowerCase() === name);
      return other === undefined
        ? { files: [], skipped: [], missing: true }
        : {
            files: [],
            skipped: [],
            problem: `is missing, and "${other}" is there: the folder must be named "${name}", in lower case (names are case-sensitive on Linux)`,
          };
    }
    const problem =
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
        ? 'is a file, not the folder of review files'
        : unreadableReason(error);
    return { files: [], skipped: [], problem };
  }
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    const lower = entry.name.toLowerCase();
    // A link to a folder is not followed (it may lead back up, or out of the content); its
    // reviews would otherwise go unpublished unseen.
    const linked = entry.isSymbolicLink() ? await stat(file).catch(() => undefined) : undefined;
    if (linked?.isDirectory()) {
      skipped.push({
        file,
        reason: 'a symbolic link to a folder, which is not followed: move its files into reviews/',
      });
      continue;
    }
    if (!lower.endsWith('.md') && !lower.endsWith('.markdown')) continue;
    if (!entry.name.endsWith('.md')) {
      skipped.push({ file, reason: 'a review file name ends in .md, in lower case' });
      continue;
    }
    if (entry.isFile()) {
      files.push(file);
      continue;
    }
    if (entry.isDirectory()) continue;
    if (linked?.isFile()) files.push(file);
    else if (entry.isSymbolicLink() && linked === undefined)
      skipped.push({ file, reason: 'a symbolic link to nothing' });
    else skipped.push({ file, reason: 'not a regular file (a device, socket or pipe)' });
  }
  return { files: files.sort(), skipped: skipped.sort((a, b) => a.file.localeCompare(b.file)) };
}

// One file at a time: a content folder may hold thousands of reviews, more than the open-file
// limit would allow at once. The owner's tools read the reviews the same way, so they see every
// file the build sees, in subfolders too.
export async function readReviews(dir: string): Promise<{
  reviews: ReviewSource[];
  skipped: SkippedFile[];
  problem?: string;
  missing?: boolean;
}> {
  const listed = await listReviewFiles(dir);
  const reviews: ReviewSource[] = [];
  for (const file of listed.files) {
    reviews.push({ file, id: path.basename(file, '.md'), source: await readMarkdown(file) });
  }
  return {
    reviews,
    skipped: listed.skipped,
    ...(listed.problem ? { problem: listed.problem } : {}),
    ...(listed.missing ? { missing: true } : {}),
  };
}

export async function readContent(contentDir: string): Promise<ContentSources> {
  const businessFile = path.join(contentDir, 'business.json');
  const faqFile = path.join(contentDir, 'insights', 'faq.json');
  const summaryFile = path.join(contentDir, 'insights', 'summary.md');
  const reviewsDir = path.join(contentDir, 'reviews');
  const [business, read, faq, summary] = await Promise.all([
    readJson(businessFile),
    readReviews(reviewsDir),
    readJson(faqFile),
    readMarkdown(summaryFile),
  ]);
  return {
    businessFile,
    business,
    reviews: read.reviews,
    reviewsDir,
    reviewsProblem: read.problem,
    reviewsMissing: read.missing === true,
    skippedFiles: read.skipped,
    faqFile,
    faq,
    summaryFile,
    summary,
  };
}
