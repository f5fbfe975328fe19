// One review file checked against the front matter schema, its text and what business.json
// defines. Every problem in the file is reported at once: the schema's, the missing text, and
// the cross-references of whatever ids are well formed, even when other fields are wrong.
import {
  ReviewFrontMatterSchema,
  hasVisibleCharacter,
  type ReviewFrontMatter,
} from '../core/review.ts';
import { problemsFromZod, type ContentProblem, type FieldProblem } from './problems.ts';
import type { MarkdownSource } from './read-content.ts';
import { referenceProblems, type BusinessIds } from './references.ts';

/**
 * The longest review text published. Review platforms cap theirs at about 4,000 to 5,000
 * characters; far past that a file is a paste gone wrong, and one would make every page, feed and
 * quote that shows it as large.
 */
export const MAX_REVIEW_TEXT = 20_000;

/**
 * What is wrong with a review's text (the body after the front matter), if anything: the build,
 * the importer and new-review all hold it to this.
 */
export function reviewTextProblem(text: string): string | undefined {
  if (!hasVisibleCharacter(text))
    return text.length === 0
      ? 'the review text (the body after the front matter) is missing'
      : 'the review text (the body after the front matter) holds no visible character';
  // Characters as a reader counts them: an emoji is one, not its two UTF-16 units.
  const length = text.length > MAX_REVIEW_TEXT ? [...text].length : 0;
  if (length > MAX_REVIEW_TEXT)
    return `is ${length.toLocaleString('en-US')} characters; a review's text may be at most ${MAX_REVIEW_TEXT.toLocaleString('en-US')}`;
  return undefined;
}

export interface CheckedReview {
  problems: ContentProblem[];
  /** Present only when there are no problems. */
  valid?: { frontMatter: ReviewFrontMatter; text: string };
}

/** An edit and the owner's reply come after the review itself. */
function dateOrderProblems(fm: ReviewFrontMatter): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (fm.updated !== undefined && fm.updated < fm.date)
    problems.push({ field: 'updated', message: `must be on or after date (${fm.date})` });
  if (fm.reply !== undefined && fm.reply.date < fm.date)
    problems.push({ field: 'reply.date', message: `must be on or after date (${fm.date})` });
  return problems;
}

/** Keys the front matter must give a value; any other key written blank (`title:`) is absent. */
const REQUIRED_KEYS = new Set(
  Object.entries(ReviewFrontMatterSchema.shape)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([key]) => key),
);

/** `data` without the optional keys YAML read as null because they were left blank. */
function withoutBlankOptionalKeys(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(
    Object.entries(data).filter(([key, value]) => value !== null || REQUIRED_KEYS.has(key)),
  );
}

export function checkReview(file: string, source: MarkdownSource, ids: BusinessIds): CheckedReview {
  if (source.kind === 'unreadable') {
    return {
      problems: [
        source.yaml
          ? { file, field: 'front matter', message: `is not valid YAML (${source.message})` }
          : { file, field: '', message: source.message },
      ],
    };
  }
  // Without front matter every field would be reported missing, which hides the one mistake.
  if (source.frontMatter === 'after-blank' || source.frontMatter === 'none')
    return {
      problems: [
        {
          file,
          field: 'front matter',
          message:
            source.frontMatter === 'after-blank'
              ? 'must begin on the first line: blank lines or spaces come before its opening ---'
              : 'is missing: a review starts with a --- line, then its fields (rating, date, author, …), another --- line, and the text',
        },
      ],
    };
  const data = withoutBlankOptionalKeys(source.data);
  const result = ReviewFrontMatterSchema.safeParse(data);
  const fieldProblems: FieldProblem[] = [];
  const textProblem = reviewTextProblem(source.text);
  if (textProblem !== undefined) fieldProblems.push({ field: 'text', message: textProblem });
  fieldProblems.push(...referenceProblems(data, ids));
  if (result.success) fieldProblems.push(...dateOrderProblems(result.data));
  const problems = [
    ...(result.success ? [] : problemsFromZod(file, ReviewFrontMatterSchema, result.error)),
    ...fieldProblems.map((problem) => ({ file, ...problem })),
  ];
  if (!result.success || problems.length > 0) return { problems };
  return { problems, valid: { frontMatter: result.data, text: source.text } };
}
