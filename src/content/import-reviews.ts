// Turns platform exports into review files: Google Business Profile review objects (a page
// `{reviews: [...]}` or a bare array) and CSV exports (a header row, RFC 4180). Pure planning: the
// caller reads the inputs and the existing reviews, and writes the plan only when it has no
// problems, so an import is all or nothing.
import { parse as parseCsv } from 'csv-parse/sync';
import {
  REVIEW_SOURCES,
  ReviewFrontMatterSchema,
  VERIFICATION_METHODS,
  hasVisibleCharacter,
  type Business,
  type ReviewFrontMatter,
} from '../core/review.ts';
import { isRealIsoDate } from '../core/dates.ts';
import { foldText } from '../core/text.ts';
import { reviewTextProblem } from './check-review.ts';
import { withoutControlCharacters } from './read-content.ts';
import { freeReviewId, renderReviewFile, type ReviewFileFields } from './review-file.ts';

export type ImportFormat = 'gbp' | 'csv';
type Source = (typeof REVIEW_SOURCES)[number];
type Verification = (typeof VERIFICATION_METHODS)[number];

/** One problem, naming the input file, the record and the field. */
export interface ImportProblem {
  file: string;
  record: string;
  field: string;
  message: string;
}

export class ImportError extends Error {
  readonly problems: ImportProblem[];
  constructor(problems: ImportProblem[]) {
    super(
      problems
        .map((p) => `${p.file} › ${p.record}${p.field ? ` › ${p.field}` : ''}: ${p.message}`)
        .join('\n'),
    );
    this.name = 'ImportError';
    this.problems = problems;
  }
}

/** A review as an export gives it, before it meets the existing files. */
export interface ImportedReview {
  file: string;
  record: string;
  source: Source;
  sourceId?: string | undefined;
  sourceUrl?: string | undefined;
  rating: number;
  date: string;
  updated?: string | undefined;
  author: string;
  location?: string | undefined;
  title?: string | undefined;
  text: string;
  language: string;
  reply?: { date: string; text: string } | undefined;
  verification?: Verification | undefined;
  technicians: string[];
  services: string[];
  /** Set when the text was a machine translation followed by the original. */
  translated?: boolean;
  /**
   * Fields the export does not hold (a CSV without a `reply` or `source` column): the value an
   * existing file has stays, rather than being taken as "none" or as the default.
   */
  absent?: readonly ('reply' | 'source')[];
}

/** An existing review file, as read from CONTENT_DIR. */
export interface ExistingReview {
  id: string;
  fields: ReviewFileFields;
  text: string;
}

export interface PlannedWrite {
  kind: 'new' | 'updated';
  id: string;
  /** The whole file. */
  content: string;
  from: string;
  notes: string[];
}

export interface ImportPlan {
  writes: PlannedWrite[];
  unchanged: { id: string; from: string }[];
  skipped: { from: string; reason: string }[];
}

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** The calendar date of an instant in a time zone (2025-04-01T00:30:00Z is 31 March in Chicago). */
export function calendarDate(instant: string, timeZone: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/i.test(instant)) return undefined;
  const time = Date.parse(instant);
  if (Number.isNaN(time)) return undefined;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(time));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Google's "(Translated by Google) … (Original) …" comments, either order: the original text is
 * kept and the machine translation dropped. The original's language is not in the export.
 */
export function untranslate(comment: string): { text: string; translated: boolean } {
  const translatedFirst =
    /^\s*\(Translated by Google\)\s*([\s\S]*?)\s*\(Original\)\s*([\s\S]*?)\s*$/.exec(comment);
  if (translatedFirst) return { text: translatedFirst[2]!, translated: true };
  const originalFirst =
    /^\s*\(Original\)\s*([\s\S]*?)\s*\(Translated by Google\)\s*([\s\S]*?)\s*$/.exec(comment);
  if (originalFirst) return { text: originalFirst[1]!, translated: true };
  return { text: comment.trim(), translated: false };
}

/**
 * A text as the build will read it back from the file written: line breaks as \n and no control
 * characters. Compared raw, a record with a stray \r or BEL would never equal its own file, and
 * every import would write it again (or as a new review).
 */
function asRead(text: string): string {
  return withoutControlCharacters(text.replace(/\r\n?/g, '\n'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Google Business Profile review objects → imported reviews (problems collected, not thrown). */
export function readGbp(
  file: string,
  source: string,
  business: Business,
  verification: Verification,
  problems: ImportProblem[],
  notices: string[] = [],
): ImportedReview[] {
  let data: unknown;
  try {
    data = JSON.parse(source.replace(/^\uFEFF/, ''), (_key, item: unknown) =>
      typeof item === 'string' ? asRead(item) : item,
    );
  } catch (error) {
    problems.push({
      file,
      record: 'file',
      field: '',
      message: `not JSON (${(error as Error).message})`,
    });
    return [];
  }
  const list = Array.isArray(data) ? data : isRecord(data) ? data.reviews : undefined;
  if (isRecord(data) && typeof data.nextPageToken === 'string' && data.nextPageToken !== '')
    notices.push(
      `${file} is one page of the export (it has a nextPageToken): import the other pages too, or some reviews are missing`,
    );
  if (!Array.isArray(list)) {
    problems.push({
      file,
      record: 'file',
      field: '',
      message: 'expected a page {"reviews": [...]} or an array of review objects',
    });
    return [];
  }
  const reviews: ImportedReview[] = [];
  list.forEach((item: unknown, index) => {
    const id = isRecord(item) && typeof item.reviewId === 'string' ? item.reviewId : undefined;
    const record = `reviews[${index}]${id ? ` (reviewId ${id})` : ''}`;
    const fail = (field: string, message: string): void => {
      problems.push({ file, record, field, message });
    };
    if (!isRecord(item)) return fail('', 'expected a review object');
    if (!id) return fail('reviewId', 'missing: every Google review has a reviewId');
    const rating = typeof item.starRating === 'string' ? STARS[item.starRating] : undefined;
    if (rating === undefined)
      fail(
        'starRating',
        `expected ONE, TWO, THREE, FOUR or FIVE, got ${JSON.stringify(item.starRating)}`,
      );
    const created =
      typeof item.createTime === 'string'
        ? calendarDate(item.createTime, business.timezone)
        : undefined;
    if (created === undefined)
      fail('createTime', `expected an RFC 3339 timestamp, got ${JSON.stringify(item.createTime)}`);
    let updated: string | undefined;
    if (item.updateTime !== undefined) {
      updated =
        typeof item.updateTime === 'string'
          ? calendarDate(item.updateTime, business.timezone)
          : undefined;
      if (updated === undefined)
        fail(
          'updateTime',
          `expected an RFC 3339 timestamp, got ${JSON.stringify(item.updateTime)}`,
        );
    }
    const reviewer = isRecord(item.reviewer) ? item.reviewer : {};
    const anonymous = reviewer.isAnonymous === true;
    const name = typeof reviewer.displayName === 'string' ? reviewer.displayName.trim() : '';
    let reply: ImportedReview['reply'];
    if (
      isRecord(item.reviewReply) &&
      typeof item.reviewReply.comment === 'string' &&
      item.reviewReply.comment.trim()
    ) {
      const replyTime = item.reviewReply.updateTime;
      const replyDate =
        typeof replyTime === 'string' ? calendarDate(replyTime, business.timezone) : undefined;
      if (replyDate === undefined)
        fail(
          'reviewReply.updateTime',
          `expected an RFC 3339 timestamp, got ${JSON.stringify(replyTime)}`,
        );
      else reply = { date: replyDate, text: item.reviewReply.comment.trim() };
    }
    if (item.comment !== undefined && typeof item.comment !== 'string')
      fail('comment', 'expected text');
    const { text, translated } = untranslate(typeof item.comment === 'string' ? item.comment : '');
    if (rating === undefined || created === undefined) return;
    reviews.push({
      file,
      record,
      source: 'google',
      sourceId: id,
      rating,
      date: created,
      updated: updated !== undefined && updated > created ? updated : undefined,
      author: anonymous || name === '' ? 'A Google user' : name,
      text,
      language: translated ? 'und' : 'en',
      reply: reply && reply.date >= created ? reply : reply && { ...reply, date: created },
      verification,
      technicians: [],
      services: [],
      translated,
    });
  });
  return reviews;
}

const CSV_REQUIRED = ['date', 'rating', 'author', 'text'] as const;
const CSV_KNOWN = [
  ...CSV_REQUIRED,
  'title',
  'source',
  'source_url',
  'source_id',
  'reply',
  'reply_date',
  'location',
  'verification',
  'technicians',
  'services',
] as const;

function resolveNames(
  kind: 'technicians' | 'services',
  raw: string,
  business: Business,
  fail: (field: string, message: string) => void,
): string[] {
  const items = raw
    .split(/[;,|]/)
    .map((item) => item.trim())
    .filter(Boolean);
  const entries =
    kind === 'technicians'
      ? business.technicians.map((t) => ({ id: t.id, names: [t.id, t.name, ...(t.aliases ?? [])] }))
      : business.services.map((s) => ({ id: s.id, names: [s.id, s.name] }));
  const ids: string[] = [];
  for (const item of items) {
    const found = entries.find((entry) => entry.names.some((n) => foldText(n) === foldText(item)));
    if (!found)
      fail(
        kind,
        `unknown ${kind === 'technicians' ? 'technician' : 'service'} "${item}"; known: ${entries.map((e) => e.id).join(', ')}`,
      );
    else if (!ids.includes(found.id)) ids.push(found.id);
  }
  return ids;
}

/**
 * The separator of a CSV file, read from its header line: a comma, or, when the header has none, a
 * semicolon or tab (spreadsheets in many locales save "CSV" with semicolons).
 */
function delimiterOf(source: string): string {
  const header = source.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  if (header.includes('\t')) return '\t';
  return ',';
}

/** A CSV export with a header row → imported reviews (problems collected, not thrown). */
export function readCsv(
  file: string,
  source: string,
  business: Business,
  verification: Verification | undefined,
  problems: ImportProblem[],
): ImportedReview[] {
  let rows: { record: Record<string, string>; info: { lines: number; error?: unknown } }[];
  let header: string[] | undefined;
  try {
    rows = parseCsv(source, {
      bom: true,
      delimiter: delimiterOf(source),
      columns: (names: string[]) => (header = names.map((name) => name.trim().toLowerCase())),
      skip_empty_lines: true,
      // A spreadsheet's trailing rows of empty cells (",,,") are no records.
      skip_records_with_empty_values: true,
      // A short record is reported below with its number, not as the parser's one error.
      relax_column_count_less: true,
      info: true,
    }) as unknown as typeof rows;
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    problems.push({
      file,
      record: lines ? `line ${lines}` : 'file',
      field: '',
      message: `not valid CSV (${(error as Error).message})`,
    });
    return [];
  }
  if (header === undefined) {
    problems.push({
      file,
      record: 'header',
      field: '',
      message: `the file is empty; the first line must name the columns: ${CSV_REQUIRED.join(', ')}`,
    });
    return [];
  }
  const repeated = header.filter((name, index) => header!.indexOf(name) !== index);
  if (repeated.length > 0) {
    problems.push({
      file,
      record: 'header',
      field: [...new Set(repeated)].join(', '),
      message: 'a column is named twice: which one holds the value is not clear',
    });
    return [];
  }
  const columns = header;
  const missing = CSV_REQUIRED.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    const noneKnown = !columns.some((name) => (CSV_KNOWN as readonly string[]).includes(name));
    problems.push({
      file,
      record: 'header',
      field: missing.join(', '),
      message: `missing column${missing.length > 1 ? 's' : ''}; the header must name ${CSV_REQUIRED.join(', ')} (optional: ${CSV_KNOWN.slice(4).join(', ')})${noneKnown ? `. The first line reads "${columns.join(',').slice(0, 80)}": the file needs a header row naming its columns` : ''}`,
    });
    return [];
  }
  if (rows.length === 0) {
    problems.push({
      file,
      record: 'file',
      field: '',
      message: 'has a header but no records: nothing to import',
    });
    return [];
  }
  const unknown = columns.filter((name) => !(CSV_KNOWN as readonly string[]).includes(name));
  if (unknown.length > 0)
    problems.push({
      file,
      record: 'header',
      field: unknown.join(', '),
      message: `unknown column; known: ${CSV_KNOWN.join(', ')}`,
    });
  const reviews: ImportedReview[] = [];
  for (const [index, { record: row, info }] of rows.entries()) {
    // The n-th record after the header (a quoted cell may span several lines of the file).
    const record = `record ${index + 1}`;
    const fail = (field: string, message: string): void => {
      problems.push({ file, record, field, message });
    };
    if (info.error !== undefined) {
      fail(
        '',
        `has ${Object.keys(row).length} cells where the header names ${columns.length} (line ${info.lines})`,
      );
      continue;
    }
    const value = (name: string) => asRead(row[name] ?? '').trim();
    const toDate = (raw: string, field: string): string | undefined => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(raw) && isRealIsoDate(raw)) return raw;
      const date = calendarDate(raw, business.timezone);
      if (date === undefined)
        fail(field, `expected YYYY-MM-DD or an RFC 3339 timestamp, got "${raw}"`);
      return date;
    };
    const date = toDate(value('date'), 'date');
    const ratingText = value('rating');
    const rating = /^[1-5]$/.test(ratingText) ? Number(ratingText) : undefined;
    if (rating === undefined)
      fail('rating', `expected a whole number from 1 to 5, got "${ratingText}"`);
    const author = value('author');
    if (author === '') fail('author', 'must not be empty');
    // Without a source the review is "other"; an existing file's platform stays.
    const sourceName = (value('source') || 'other').toLowerCase();
    const sourceOk = (REVIEW_SOURCES as readonly string[]).includes(sourceName);
    if (!sourceOk) fail('source', `expected one of ${REVIEW_SOURCES.join(', ')}`);
    const method = value('verification') || verification;
    if (method === undefined)
      fail(
        'verification',
        `missing: add a verification column or pass --verification (${VERIFICATION_METHODS.join(', ')})`,
      );
    else if (!(VERIFICATION_METHODS as readonly string[]).includes(method))
      fail('verification', `expected one of ${VERIFICATION_METHODS.join(', ')}`);
    const replyText = value('reply');
    const replyDate = replyText
      ? value('reply_date')
        ? toDate(value('reply_date'), 'reply_date')
        : date
      : undefined;
    const technicians = resolveNames('technicians', value('technicians'), business, fail);
    const services = resolveNames('services', value('services'), business, fail);
    if (date === undefined || rating === undefined || author === '' || !sourceOk) continue;
    reviews.push({
      file,
      record,
      source: sourceName as Source,
      sourceId: value('source_id') || undefined,
      sourceUrl: value('source_url') || undefined,
      rating,
      date,
      author,
      location: value('location') || undefined,
      title: value('title') || undefined,
      // Line breaks inside a quoted cell are paragraphs of the review; kept as written.
      text: value('text'),
      language: 'en',
      reply: replyText && replyDate ? { date: replyDate, text: replyText } : undefined,
      verification: method as Verification | undefined,
      technicians,
      services,
      absent: [
        ...(columns.includes('reply') ? [] : (['reply'] as const)),
        ...(value('source') === '' ? (['source'] as const) : []),
      ],
    });
  }
  return reviews;
}

/**
 * Technicians named in the text: full name, first name or an alias, as whole words, any accent. A
 * name of two or more words matches in any case; a one-word name only capitalized, as names are
 * written, so that "Cat", "Will" or "Mark" on the crew are not found in "the cat", "we will" or
 * "a water mark".
 */
export function proposeTechnicians(text: string, business: Business): string[] {
  const folded = ` ${foldText(text).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const capitalized = new Set(
    (text.match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((word) => /^\p{Lu}/u.test(word))
      .map((word) => foldText(word)),
  );
  return business.technicians
    .filter((technician) => {
      const names = [
        technician.name,
        technician.name.split(/\s+/)[0]!,
        ...(technician.aliases ?? []),
      ];
      return names.some((name) => {
        const words = foldText(name)
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
        if (words === '') return false;
        return words.includes(' ') ? folded.includes(` ${words} `) : capitalized.has(words);
      });
    })
    .map((technician) => technician.id);
}

/**
 * The keys a review is known by: its platform id and its link when it has them, its platform,
 * date, author and text (whitespace and case aside), so that a record exported without an id or
 * link (a spreadsheet, say) is still the same review when imported again, and, whatever its
 * platform, its date, rating, author and text: the build refuses two files that share those, so
 * the import must find the one there is. A record whose text was edited on the platform has no key
 * in common with its file: it comes in as new.
 */
function identityKeys(
  fields: {
    source?: unknown;
    source_id?: unknown;
    source_url?: unknown;
    date?: unknown;
    rating?: unknown;
    author?: unknown;
  },
  text: string,
): string[] {
  const keys: string[] = [];
  if (typeof fields.source_id === 'string')
    keys.push(`${String(fields.source)}:${fields.source_id}`);
  if (typeof fields.source_url === 'string') keys.push(`url:${fields.source_url}`);
  const words = (value: unknown) =>
    foldText(String(value ?? ''))
      .replace(/\s+/g, ' ')
      .trim();
  keys.push(
    `content:${String(fields.source)}|${String(fields.date)}|${words(fields.author)}|${words(text)}`,
  );
  keys.push(
    `${SAME_REVIEW}${String(fields.date)}|${String(fields.rating)}|${words(fields.author)}|${words(text)}`,
  );
  return keys;
}

/** The key of the build's rule for one review in two files, whatever their platforms. */
const SAME_REVIEW = 'review:';

type SkippedRecord = ImportPlan['skipped'][number];

const fromOf = (review: ImportedReview) => `${review.file} › ${review.record}`;

const keysOf = (review: ImportedReview) =>
  identityKeys(
    {
      source: review.source,
      source_id: review.sourceId,
      source_url: review.sourceUrl,
      date: review.date,
      rating: review.rating,
      author: review.author,
    },
    review.text,
  );

/**
 * The records that are another copy of a review earlier in the import (sharing a key with it),
 * each with why it is skipped. Of the copies, the one updated last is imported (the first of
 * those updated at the same time): an export that lists a review twice, before and after an edit,
 * imports the edit.
 */
function newestCopies(imported: readonly ImportedReview[]): Map<ImportedReview, SkippedRecord> {
  const groups: ImportedReview[][] = [];
  const groupOf = new Map<string, ImportedReview[]>();
  for (const review of imported) {
    if (!hasVisibleCharacter(review.text)) continue;
    const keys = keysOf(review);
    let group = keys.map((key) => groupOf.get(key)).find(Boolean);
    if (!group) groups.push((group = []));
    group.push(review);
    for (const key of keys) if (!groupOf.has(key)) groupOf.set(key, group);
  }
  const copies = new Map<ImportedReview, SkippedRecord>();
  for (const group of groups) {
    if (group.length < 2) continue;
    const updated = (review: ImportedReview) => review.updated ?? review.date;
    const newest = group.reduce((best, review) =>
      updated(review) > updated(best) ? review : best,
    );
    for (const review of group) {
      if (review === newest) continue;
      const reason =
        updated(review) < updated(newest)
          ? `an older copy of ${fromOf(newest)}, which is imported`
          : `the same review as ${fromOf(newest)}`;
      copies.set(review, { from: fromOf(review), reason });
    }
  }
  return copies;
}

/** What the import will write: new files, updates in place, unchanged and skipped records. */
export function planImport(
  imported: readonly ImportedReview[],
  existing: readonly ExistingReview[],
  business: Business,
): ImportPlan {
  const problems: ImportProblem[] = [];
  const byIdentity = new Map<string, ExistingReview>();
  for (const review of existing)
    for (const key of identityKeys(review.fields, review.text)) byIdentity.set(key, review);
  const taken = new Set(existing.map((review) => review.id));
  const plan: ImportPlan = { writes: [], unchanged: [], skipped: [] };
  const copies = newestCopies(imported);
  for (const review of imported) {
    const from = fromOf(review);
    if (!hasVisibleCharacter(review.text)) {
      plan.skipped.push({ from, reason: 'no text (a star-only rating)' });
      continue;
    }
    const copy = copies.get(review);
    if (copy) {
      plan.skipped.push(copy);
      continue;
    }
    const textProblem = reviewTextProblem(review.text);
    if (textProblem !== undefined) {
      problems.push({
        file: review.file,
        record: review.record,
        field: 'text',
        message: textProblem,
      });
      continue;
    }
    const keys = keysOf(review);
    const matchedBy = keys.find((key) => byIdentity.has(key));
    const match = matchedBy === undefined ? undefined : byIdentity.get(matchedBy);
    const absent = new Set(review.absent ?? []);
    if (
      match &&
      matchedBy!.startsWith(SAME_REVIEW) &&
      !absent.has('source') &&
      match.fields.source !== review.source
    ) {
      // Posted on two platforms, word for word: the build publishes one of them.
      plan.skipped.push({
        from,
        reason: `the same review as ${match.id}.md, which is its ${String(match.fields.source)} copy (published once)`,
      });
      continue;
    }
    const imported_: Partial<ReviewFrontMatter> = {
      rating: review.rating,
      date: review.date,
      title: review.title,
      author: review.author,
      location: review.location,
      source: review.source,
      source_id: review.sourceId,
      source_url: review.sourceUrl,
      language: review.language,
      reply: review.reply,
      updated: review.updated,
    };
    const notes: string[] = [];
    if (review.translated)
      notes.push(
        'the original text is kept, the machine translation dropped; set `language` to its language',
      );
    let fields: ReviewFileFields;
    let id: string;
    let kind: 'new' | 'updated';
    if (match) {
      // The language is the owner's to set (an export only guesses it), and what the export
      // does not hold stays as the file has it.
      delete imported_.language;
      if (absent.has('source')) delete imported_.source;
      if (absent.has('reply')) delete imported_.reply;
      const same =
        match.text.trim() === review.text.trim() &&
        (Object.keys(imported_) as (keyof ReviewFrontMatter)[]).every(
          (key) =>
            imported_[key] === undefined ||
            JSON.stringify(match.fields[key]) === JSON.stringify(imported_[key]),
        ) &&
        (review.reply !== undefined || absent.has('reply') || match.fields.reply === undefined);
      if (same) {
        plan.unchanged.push({ id: match.id, from });
        continue;
      }
      // The owner's own fields (technicians, services, area, verification, private, …) stay.
      fields = { ...match.fields };
      for (const [key, value] of Object.entries(imported_))
        if (value !== undefined) fields[key] = value;
      if (review.reply === undefined && !absent.has('reply')) delete fields.reply;
      id = match.id;
      kind = 'updated';
    } else {
      const proposed = proposeTechnicians(review.text, business).filter(
        (t) => !review.technicians.includes(t),
      );
      if (proposed.length > 0)
        notes.push(`technicians proposed from the text: ${proposed.join(', ')}`);
      fields = {
        ...imported_,
        verification: review.verification,
        technicians: [...review.technicians, ...proposed],
        services: review.services,
      };
      id = freeReviewId(review.date, review.author, taken);
      kind = 'new';
    }
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete fields[key];
    const reply = fields.reply as { date: string } | undefined;
    if (reply && typeof fields.date === 'string' && reply.date < fields.date)
      problems.push({
        file: review.file,
        record: review.record,
        field: 'reply_date',
        message: `must be on or after the review's date (${fields.date})`,
      });
    const checked = ReviewFrontMatterSchema.safeParse(fields);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        problems.push({
          file: review.file,
          record: review.record,
          field: issue.path.join('.'),
          message: issue.message,
        });
      continue;
    }
    plan.writes.push({ kind, id, content: renderReviewFile(fields, review.text), from, notes });
  }
  if (problems.length > 0) throw new ImportError(problems);
  return plan;
}
