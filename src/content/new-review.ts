// The fields of a new review, checked one by one (each prompt of `npm run new-review` validates as
// you type with these, and the flags go through the same checks), and the file they make.
import { isRealIsoDate } from '../core/dates.ts';
import {
  REVIEW_SOURCES,
  ReviewFrontMatterSchema,
  VERIFICATION_METHODS,
  hasVisibleCharacter,
  type Business,
} from '../core/review.ts';
import { MAX_REVIEW_TEXT, reviewTextProblem } from './check-review.ts';
import { calendarDate } from './import-reviews.ts';
import { withoutControlCharacters } from './read-content.ts';
import { freeReviewId, renderReviewFile, type ReviewFileFields } from './review-file.ts';

export interface NewReviewAnswers {
  rating: string;
  date: string;
  author: string;
  text: string;
  title?: string | undefined;
  location?: string | undefined;
  source: string;
  sourceUrl?: string | undefined;
  verification: string;
  technicians: string[];
  services: string[];
  serviceArea?: string | undefined;
}

/** A text as the build reads it back from the file: \n line breaks, no control characters, trimmed. */
function asWritten(text: string): string {
  return withoutControlCharacters(text.replace(/\r\n?/g, '\n')).trim();
}

/** Today's date where the business is: in the evening west of Greenwich, UTC is already tomorrow. */
export function todayAt(timeZone: string, now: Date = new Date()): string {
  return calendarDate(now.toISOString(), timeZone)!;
}

/** A review already published, as far as telling a second copy of it goes. */
export interface PublishedCopy {
  id: string;
  date: unknown;
  rating: unknown;
  author: unknown;
  text: string;
}

/** true when the value is fine, else the message a prompt shows (and the flags mode prints). */
export const CHECKS = {
  rating: (value: string) => /^[1-5]$/.test(value.trim()) || 'a whole number of stars from 1 to 5',
  date: (value: string) =>
    (/^\d{4}-\d{2}-\d{2}$/.test(value.trim()) && isRealIsoDate(value.trim())) ||
    'a real date as YYYY-MM-DD',
  author: (value: string) => value.trim() !== '' || 'the name to show, e.g. "Jane D."',
  text: (value: string) => {
    const problem = reviewTextProblem(asWritten(value));
    if (problem === undefined) return true;
    return hasVisibleCharacter(value)
      ? `the review text, at most ${MAX_REVIEW_TEXT.toLocaleString('en-US')} characters (${problem.replace(/;.*/, '')})`
      : 'the review text';
  },
  source: (value: string) =>
    (REVIEW_SOURCES as readonly string[]).includes(value) || `one of ${REVIEW_SOURCES.join(', ')}`,
  sourceUrl: (value: string) =>
    value.trim() === '' || /^https?:\/\/\S+$/.test(value.trim()) || 'an http(s) URL, or empty',
  verification: (value: string) =>
    (VERIFICATION_METHODS as readonly string[]).includes(value) ||
    `one of ${VERIFICATION_METHODS.join(', ')}`,
} as const;

export class NewReviewError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'NewReviewError';
    this.problems = problems;
  }
}

/** The review's id and file, or every problem with the answers, each naming its field. */
export function buildNewReview(
  answers: NewReviewAnswers,
  business: Business,
  taken: Set<string>,
  published: readonly PublishedCopy[] = [],
): { id: string; content: string } {
  const problems: string[] = [];
  for (const [field, check] of Object.entries(CHECKS)) {
    const value = answers[field as keyof NewReviewAnswers];
    const result = check((typeof value === 'string' ? value : '') as never);
    if (result !== true && !(field === 'sourceUrl' && value === undefined))
      problems.push(`${field}: expected ${result}`);
  }
  const known = (kind: string, ids: string[], list: readonly { id: string }[]) => {
    for (const id of ids)
      if (!list.some((item) => item.id === id))
        problems.push(
          `${kind}: unknown id "${id}"; known: ${list.map((item) => item.id).join(', ')}`,
        );
  };
  known('technician', answers.technicians, business.technicians);
  known('service', answers.services, business.services);
  if (answers.serviceArea) known('service-area', [answers.serviceArea], business.service_areas);
  if (problems.length > 0) throw new NewReviewError(problems);
  const fields: Record<string, unknown> = {
    rating: Number(answers.rating.trim()),
    date: answers.date.trim(),
    title: answers.title?.trim() || undefined,
    author: answers.author.trim(),
    location: answers.location?.trim() || undefined,
    source: answers.source,
    source_url: answers.sourceUrl?.trim() || undefined,
    verification: answers.verification,
    technicians: answers.technicians,
    services: answers.services,
    service_area: answers.serviceArea || undefined,
  };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete fields[key];
  const checked = ReviewFrontMatterSchema.safeParse(fields);
  if (!checked.success)
    throw new NewReviewError(
      checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  // The build refuses two files with the same date, author, rating and text: refused here first.
  const copy = published.find(
    (review) =>
      review.date === fields.date &&
      review.rating === fields.rating &&
      typeof review.author === 'string' &&
      review.author.trim() === fields.author &&
      asWritten(review.text) === asWritten(answers.text),
  );
  if (copy)
    throw new NewReviewError([
      `the same review (date, author, rating and text) is already ${copy.id}.md: it is published once`,
    ]);
  const id = freeReviewId(fields.date as string, answers.author, taken);
  return { id, content: renderReviewFile(fields as ReviewFileFields, answers.text) };
}
