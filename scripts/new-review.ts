// `npm run new-review`: asks for each field of a new review, with validation as you type and the
// business's technicians, services and areas to choose from; with flags (`--rating --date
// --author --text --source --verification`, and optionally `--title --location --source-url
// --technician… --service… --service-area`) it asks nothing. Writes one file and prints its path.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseCliArgs } from './cli-args.ts';
import { checkbox, input, select } from '@inquirer/prompts';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError, loadBusiness } from '../src/content/load-content.ts';
import { readReviews } from '../src/content/read-content.ts';
import {
  CHECKS,
  NewReviewError,
  buildNewReview,
  todayAt,
  type NewReviewAnswers,
} from '../src/content/new-review.ts';
import { REVIEW_SOURCES, VERIFICATION_METHODS } from '../src/core/review.ts';

const { values } = parseCliArgs(
  {
    options: {
      rating: { type: 'string' },
      date: { type: 'string' },
      author: { type: 'string' },
      text: { type: 'string' },
      title: { type: 'string' },
      location: { type: 'string' },
      source: { type: 'string' },
      'source-url': { type: 'string' },
      verification: { type: 'string' },
      technician: { type: 'string', multiple: true },
      service: { type: 'string', multiple: true },
      'service-area': { type: 'string' },
    },
  },
  'npm run new-review -- [--rating N --date YYYY-MM-DD --author NAME --text TEXT --source SOURCE --verification METHOD] [--title --location --source-url --technician ID … --service ID … --service-area ID] (asks for what is missing)',
);

const REQUIRED = ['rating', 'date', 'author', 'text', 'source', 'verification'] as const;

async function main(): Promise<void> {
  const config = parseConfig();
  const contentDir = path.resolve(config.CONTENT_DIR);
  const business = await loadBusiness(contentDir);
  const reviewsDir = path.join(contentDir, 'reviews');
  // Every id the build would see, in subfolders too: a new review never takes one.
  const { reviews } = await readReviews(reviewsDir);
  const taken = new Set(reviews.map((review) => review.id));
  const published = reviews.flatMap(({ id, source }) => {
    if (source.kind !== 'parsed') return [];
    const { date, rating, author } = source.data as Record<string, unknown>;
    return [{ id, text: source.text, date, rating, author }];
  });
  const flagsOnly = REQUIRED.every((name) => values[name] !== undefined);
  let answers: NewReviewAnswers;
  if (flagsOnly || !process.stdin.isTTY) {
    const missing = REQUIRED.filter((name) => values[name] === undefined);
    if (missing.length > 0)
      throw new NewReviewError(
        missing.map((name) => `--${name}: required when not asking (no terminal)`),
      );
    answers = {
      rating: values.rating!,
      date: values.date!,
      author: values.author!,
      text: values.text!,
      title: values.title,
      location: values.location,
      source: values.source!,
      sourceUrl: values['source-url'],
      verification: values.verification!,
      technicians: values.technician ?? [],
      services: values.service ?? [],
      serviceArea: values['service-area'],
    };
  } else {
    const today = todayAt(business.timezone);
    answers = {
      rating: values.rating ?? (await input({ message: 'Stars (1-5)', validate: CHECKS.rating })),
      date:
        values.date ??
        (await input({ message: 'Date (YYYY-MM-DD)', default: today, validate: CHECKS.date })),
      author:
        values.author ??
        (await input({ message: 'Author as shown (e.g. "Jane D.")', validate: CHECKS.author })),
      location: values.location ?? ((await input({ message: 'Location (optional)' })) || undefined),
      title: values.title ?? ((await input({ message: 'Title (optional)' })) || undefined),
      text:
        values.text ??
        (await input({
          message: 'Review text (one line here; edit the file for paragraphs)',
          validate: CHECKS.text,
        })),
      source:
        values.source ??
        (await select({
          message: 'Where was it written?',
          choices: REVIEW_SOURCES.map((value) => ({ value })),
        })),
      sourceUrl:
        values['source-url'] ??
        ((await input({ message: 'Link to it (optional)', validate: CHECKS.sourceUrl })) ||
          undefined),
      verification:
        values.verification ??
        (await select({
          message: 'How was it verified?',
          choices: VERIFICATION_METHODS.map((value) => ({ value })),
        })),
      technicians:
        values.technician ??
        (business.technicians.length === 0
          ? []
          : await checkbox({
              message: 'Technicians (space to pick)',
              choices: business.technicians.map((t) => ({ value: t.id, name: t.name })),
            })),
      services:
        values.service ??
        (business.services.length === 0
          ? []
          : await checkbox({
              message: 'Services (space to pick)',
              choices: business.services.map((s) => ({ value: s.id, name: s.name })),
            })),
      serviceArea:
        values['service-area'] ??
        (business.service_areas.length === 0
          ? undefined
          : (await select({
              message: 'Service area',
              choices: [
                { value: '', name: '(none)' },
                ...business.service_areas.map((a) => ({ value: a.id, name: a.name })),
              ],
            })) || undefined),
    };
  }
  const { id, content } = buildNewReview(answers, business, taken, published);
  const file = path.join(reviewsDir, `${id}.md`);
  await mkdir(reviewsDir, { recursive: true });
  await writeFile(file, content, { flag: 'wx' });
  const shown = path.relative(process.cwd(), file);
  console.log(`wrote ${shown}`);
  console.log(
    `next: npm run validate-content && git add ${shown} && git commit -m "Add review ${id}"`,
  );
}

main().catch((error: unknown) => {
  if (
    error instanceof NewReviewError ||
    error instanceof ConfigError ||
    error instanceof ContentError
  ) {
    console.error(`no review written:\n${error.message}`);
    process.exit(1);
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    console.error('cancelled, no review written');
    process.exit(130);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
