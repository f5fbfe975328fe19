// Reads and validates what the business commits under CONTENT_DIR (docs/decisions.md#content) into core types.
// Used by the build, `npm run validate-content` and the tests; every problem names file and field.
// Three steps: read the files (read-content.ts), check them (the schemas, check-review.ts with
// the cross-references of references.ts, check-editorial.ts, the lexicon), and map each verified
// review to its published record (published-review.ts).
import path from 'node:path';
import {
  BusinessSchema,
  compareNewestFirst,
  type Business,
  type Review,
  type ReviewFrontMatter,
} from '../core/review.ts';
import { tagAuthority } from '../core/feeds.ts';
import type { InsightsEditorial } from '../core/insights/editorial.ts';
import type { Lexicon } from '../core/insights/lexicon.ts';
import { checkEditorial } from './check-editorial.ts';
import { checkReview } from './check-review.ts';
import { loadLexicon } from './load-lexicon.ts';
import {
  ContentError,
  invalidJsonProblem,
  problemsFromZod,
  shownPath,
  type ContentProblem,
} from './problems.ts';
import { toPublishedReview } from './published-review.ts';
import { readContent, readJson, type ContentSources } from './read-content.ts';
import { businessIds, createReviewIdCheck } from './references.ts';

export { ContentError, type ContentProblem } from './problems.ts';

export interface SkippedReview {
  file: string;
  reason: string;
}

export interface SiteContent {
  business: Business;
  /** Published (verified) reviews, newest first. */
  reviews: Review[];
  skipped: SkippedReview[];
  /**
   * What is published but looks wrong (a date in the future, a verification before the review):
   * the build says so and goes on, since the same content must build the same way on any day.
   */
  warnings: ContentProblem[];
  editorial: InsightsEditorial;
  /** The aspect lexicon, content/insights/lexicon.json (empty without the file). */
  lexicon: Lexicon;
}

export interface LoadContentOptions {
  contentDir: string;
  siteUrl: string;
  /** The build's date, YYYY-MM-DD (default: today, UTC): dates after the next day are warned of. */
  today?: string;
}

/** The day after `date` (YYYY-MM-DD). */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * A published review's dates that look like typos: after the build's next day (a review's own
 * time zone may already be a day ahead of UTC), or a verification before the review was written.
 */
function dateWarnings(
  file: string,
  review: ReviewFrontMatter,
  today: string,
  foundedYear: number | undefined,
): ContentProblem[] {
  const latest = nextDay(today);
  // Before the business was founded (or, with no year given, before 1900): a typo such as 0202.
  const earliest = `${String(foundedYear ?? 1900).padStart(4, '0')}-01-01`;
  const warnings: ContentProblem[] = [];
  const dates: [string, string | undefined][] = [
    ['date', review.date],
    ['updated', review.updated],
    ['reply.date', review.reply?.date],
    ['verified_on', review.verified_on],
  ];
  for (const [field, value] of dates) {
    if (value !== undefined && value > latest)
      warnings.push({
        file,
        field,
        message: `${value} is in the future (the build ran on ${today}): a typo? It is published as written, and the newest review date sets the insights' 12-month window`,
      });
    if (value !== undefined && value < earliest)
      warnings.push({
        file,
        field,
        message:
          foundedYear === undefined
            ? `${value} is before 1900: a typo? It is published as written`
            : `${value} is before the business was founded (${foundedYear}): a typo? It is published as written`,
      });
  }
  if (review.verified_on !== undefined && review.verified_on < review.date)
    warnings.push({
      file,
      field: 'verified_on',
      message: `${review.verified_on} is before the review's date (${review.date})`,
    });
  return warnings;
}

/**
 * What business.json leaves to stand-ins that cannot change later without harm: the feeds' entry
 * ids are made from the website's domain and the founding year, and with either missing from the
 * name and 2000. Adding one later gives every entry a new id, so feed readers show every review
 * again as new.
 */
function businessWarnings(businessFile: string, business: Business): ContentProblem[] {
  const file = shownPath(businessFile);
  const later =
    'adding it later gives every feed entry a new id, and feed readers show every review again as new';
  const warnings: ContentProblem[] = [];
  if (business.contact.website === undefined)
    warnings.push({
      file,
      field: 'contact.website',
      message: `is not set: the feeds' entry ids are made from the business name in its place (tag:${tagAuthority(business)}:…); ${later}`,
    });
  if (business.founded_year === undefined)
    warnings.push({
      file,
      field: 'founded_year',
      message: `is not set: the feeds' entry ids use 2000 in its place; ${later}`,
    });
  return warnings;
}

/**
 * business.json alone, checked as the build checks it (a ContentError naming file and field), for
 * the owner's tools that need the business's ids before they write a review.
 */
export async function loadBusiness(contentDir: string): Promise<Business> {
  const businessFile = path.join(contentDir, 'business.json');
  return checkBusiness({ businessFile, business: await readJson(businessFile) });
}

/** The business metadata, or a ContentError at once: every other check depends on it. */
function checkBusiness({
  businessFile,
  business,
}: Pick<ContentSources, 'businessFile' | 'business'>): Business {
  const file = shownPath(businessFile);
  if (business.kind === 'missing') {
    const message = 'is missing: the business metadata is required';
    throw new ContentError([{ file, field: '', message }]);
  }
  if (business.kind === 'invalid') {
    throw new ContentError([invalidJsonProblem(file, business.message)]);
  }
  const result = BusinessSchema.safeParse(business.value);
  if (!result.success) throw new ContentError(problemsFromZod(file, BusinessSchema, result.error));
  return result.data;
}

interface CheckedReviews {
  reviews: Review[];
  skipped: SkippedReview[];
  problems: ContentProblem[];
  warnings: ContentProblem[];
}

/**
 * The same review in a second file (a copy, or a link to the first, under another name) would
 * count twice in every figure: the second is an error when it has the first's platform id, or its
 * date, author, rating and text; the same `source_url` alone is a warning (some owners give the
 * platform's page of the business for every review).
 */
function createCopyCheck() {
  const seen = new Map<string, string>();
  const first = (key: string, file: string) => {
    const other = seen.get(key);
    if (other === undefined) seen.set(key, file);
    return other;
  };
  return {
    check(
      file: string,
      review: ReviewFrontMatter,
      text: string,
    ): { kind: 'problem' | 'warning'; problem: ContentProblem } | undefined {
      if (review.source_id !== undefined) {
        const other = first(`id\0${review.source}\0${review.source_id}`, file);
        if (other !== undefined)
          return {
            kind: 'problem',
            problem: {
              file,
              field: 'source_id',
              message: `the ${review.source} review "${review.source_id}" is also ${other}: publish it once`,
            },
          };
      }
      const same = [review.date, review.author.trim(), String(review.rating), text].join('\0');
      const copied = first(`text\0${same}`, file);
      if (copied !== undefined)
        return {
          kind: 'problem',
          problem: {
            file,
            field: '',
            message: `the same review as ${copied} (date, author, rating and text): publish it once`,
          },
        };
      if (review.source_url !== undefined) {
        const other = first(`url\0${review.source_url}`, file);
        if (other !== undefined)
          return {
            kind: 'warning',
            problem: {
              file,
              field: 'source_url',
              message: `is also the source_url of ${other}: the same review twice? (it is published)`,
            },
          };
      }
      return undefined;
    },
  };
}

/** Every review file checked; the verified, valid ones published, the unverified ones skipped. */
function checkReviews(
  sources: ContentSources,
  business: Business,
  siteUrl: string,
  today: string,
): CheckedReviews {
  const ids = businessIds(business);
  const checkId = createReviewIdCheck();
  const sameReview = createCopyCheck();
  const checked: CheckedReviews = {
    reviews: [],
    skipped: sources.skippedFiles.map(({ file, reason }) => ({ file: shownPath(file), reason })),
    problems: [],
    warnings: [],
  };
  if (sources.reviewsProblem !== undefined)
    checked.problems.push({
      file: shownPath(sources.reviewsDir),
      field: '',
      message: sources.reviewsProblem,
    });
  if (sources.reviewsMissing)
    checked.warnings.push({
      file: shownPath(sources.reviewsDir),
      field: '',
      message:
        'does not exist: no review is published (a business with none yet keeps the folder with an empty .gitkeep file in it, which says so)',
    });
  for (const { file: path, id, source } of sources.reviews) {
    const file = shownPath(path);
    const idProblem = checkId(id, file);
    if (idProblem !== undefined) {
      checked.problems.push({ file, field: '', message: idProblem });
      continue;
    }
    const { problems, valid } = checkReview(file, source, ids);
    checked.problems.push(...problems);
    if (valid === undefined) continue;
    const { frontMatter, text } = valid;
    if (frontMatter.verification === undefined) {
      const reason = 'no verification: unverified reviews are not published';
      checked.skipped.push({ file, reason });
      continue;
    }
    const copy = sameReview.check(file, frontMatter, text);
    if (copy) {
      (copy.kind === 'problem' ? checked.problems : checked.warnings).push(copy.problem);
      if (copy.kind === 'problem') continue;
    }
    checked.warnings.push(...dateWarnings(file, frontMatter, today, business.founded_year));
    const verified = { ...frontMatter, verification: frontMatter.verification };
    checked.reviews.push(
      toPublishedReview({ id, frontMatter: verified, text }, siteUrl, ids.technicianNames),
    );
  }
  return checked;
}

export async function loadContent({
  contentDir,
  siteUrl,
  today = new Date().toISOString().slice(0, 10),
}: LoadContentOptions): Promise<SiteContent> {
  const sources = await readContent(contentDir);
  const business = checkBusiness(sources);
  const {
    reviews,
    skipped,
    warnings,
    problems: reviewProblems,
  } = checkReviews(sources, business, siteUrl, today);
  const editorial = checkEditorial(sources);
  const lexicon = await loadLexicon(contentDir);
  const problems = [...reviewProblems, ...editorial.problems, ...lexicon.problems];
  if (problems.length > 0) throw new ContentError(problems);
  reviews.sort(compareNewestFirst);
  return {
    business,
    reviews,
    skipped,
    warnings: [...businessWarnings(sources.businessFile, business), ...warnings],
    editorial: editorial.value,
    lexicon: lexicon.lexicon,
  };
}
