// `npm run import-reviews -- [--dry-run] [--format gbp|csv] [--verification METHOD] FILE...`:
// platform exports into content/reviews/*.md under CONTENT_DIR. All or nothing: every record is
// read and checked before the first file is written; `--dry-run` prints the plan and writes nothing.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseCliArgs } from './cli-args.ts';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError, loadBusiness } from '../src/content/load-content.ts';
import { decodeContent, readReviews } from '../src/content/read-content.ts';
import type { ReviewFileFields } from '../src/content/review-file.ts';
import {
  ImportError,
  planImport,
  readCsv,
  readGbp,
  type ExistingReview,
  type ImportFormat,
  type ImportProblem,
  type ImportedReview,
  type PlannedWrite,
} from '../src/content/import-reviews.ts';
import { VERIFICATION_METHODS } from '../src/core/review.ts';

type Verification = (typeof VERIFICATION_METHODS)[number];

const USAGE = `npm run import-reviews -- [--dry-run] [--format gbp|csv] [--verification ${VERIFICATION_METHODS.join('|')}] FILE...`;

function usage(message: string): never {
  console.error(`${message}\nusage: ${USAGE}`);
  process.exit(2);
}

/** The reviews already there, read as the build reads them (subfolders included). */
async function readExisting(reviewsDir: string): Promise<ExistingReview[]> {
  const { reviews, problem } = await readReviews(reviewsDir);
  const shown = (file: string) => path.relative(process.cwd(), file);
  if (problem !== undefined) throw new Error(`${shown(reviewsDir)} ${problem}`);
  return reviews.map(({ file, id, source }) => {
    if (source.kind === 'unreadable')
      throw new Error(`${shown(file)} ${source.message}; run npm run validate-content`);
    return { id, fields: source.data as ReviewFileFields, text: source.text };
  });
}

/**
 * Every file is written to a temporary name first; only when all of them are written does each go
 * into place, so a full disk or an unwritable folder leaves the reviews as they were. A rename
 * that fails after others succeeded is reported with what was and was not written.
 */
async function writeAll(reviewsDir: string, writes: readonly PlannedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await mkdir(reviewsDir, { recursive: true });
  const targets = writes.map((write) => path.join(reviewsDir, `${write.id}.md`));
  const written: string[] = [];
  try {
    for (const [index, write] of writes.entries()) {
      await writeFile(`${targets[index]!}.tmp`, write.content);
      written.push(`${targets[index]!}.tmp`);
    }
  } catch (error) {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    throw new Error(`import failed, nothing written: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const placed: string[] = [];
  for (const target of targets) {
    try {
      await rename(`${target}.tmp`, target);
      placed.push(target);
    } catch (error) {
      await Promise.all(
        targets.filter((t) => !placed.includes(t)).map((t) => rm(`${t}.tmp`, { force: true })),
      );
      const shown = (file: string) => path.relative(process.cwd(), file);
      throw new Error(
        [
          `import failed part-way: ${shown(target)}: ${(error as Error).message}`,
          `written (${placed.length}): ${placed.map(shown).join(', ') || 'none'}`,
          `not written (${targets.length - placed.length}): ${targets
            .filter((t) => !placed.includes(t))
            .map(shown)
            .join(', ')}`,
          'run the import again once the cause is fixed: what was written comes out unchanged',
        ].join('\n'),
        { cause: error },
      );
    }
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseCliArgs(
    {
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        format: { type: 'string' },
        verification: { type: 'string' },
      },
    },
    USAGE,
  );
  if (positionals.length === 0) usage('no export file given');
  if (values.format !== undefined && values.format !== 'gbp' && values.format !== 'csv')
    usage(`--format: expected gbp or csv, got "${values.format}"`);
  if (
    values.verification !== undefined &&
    !(VERIFICATION_METHODS as readonly string[]).includes(values.verification)
  )
    usage(`--verification: expected one of ${VERIFICATION_METHODS.join(', ')}`);
  const config = parseConfig();
  const contentDir = path.resolve(config.CONTENT_DIR);
  const business = await loadBusiness(contentDir);
  const problems: ImportProblem[] = [];
  const notices: string[] = [];
  const imported: ImportedReview[] = [];
  for (const file of positionals) {
    const format: ImportFormat =
      (values.format as ImportFormat | undefined) ??
      (file.toLowerCase().endsWith('.csv') ? 'csv' : 'gbp');
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (error) {
      problems.push({
        file,
        record: 'file',
        field: '',
        message: `cannot read (${(error as Error).message})`,
      });
      continue;
    }
    let source: string;
    try {
      // As content files are read: UTF-8 only, so a Windows-1252 export is refused rather than
      // imported with U+FFFD in place of every accented letter.
      source = decodeContent(bytes);
    } catch (error) {
      problems.push({ file, record: 'file', field: '', message: (error as Error).message });
      continue;
    }
    const verification = values.verification as Verification | undefined;
    imported.push(
      ...(format === 'gbp'
        ? readGbp(file, source, business, verification ?? 'platform_verified', problems, notices)
        : readCsv(file, source, business, verification, problems)),
    );
  }
  if (problems.length > 0) throw new ImportError(problems);
  const reviewsDir = path.join(contentDir, 'reviews');
  const plan = planImport(imported, await readExisting(reviewsDir), business);

  const shown = (id: string) => path.relative(process.cwd(), path.join(reviewsDir, `${id}.md`));
  for (const write of plan.writes) {
    console.log(`${write.kind.padEnd(9)} ${shown(write.id)}  ← ${write.from}`);
    for (const note of write.notes) console.log(`          ${note}`);
  }
  for (const item of plan.unchanged) console.log(`unchanged ${shown(item.id)}  ← ${item.from}`);
  for (const item of plan.skipped) console.log(`skipped   ${item.from}: ${item.reason}`);
  const count = (kind: string) => plan.writes.filter((w) => w.kind === kind).length;
  for (const notice of notices) console.log(`note: ${notice}`);
  const summary = `${count('new')} new, ${count('updated')} updated, ${plan.unchanged.length} unchanged, ${plan.skipped.length} skipped`;
  if (values['dry-run']) {
    console.log(`dry run: ${summary}; nothing written`);
    return;
  }
  await writeAll(reviewsDir, plan.writes);
  console.log(`${summary}`);
  if (plan.writes.length > 0)
    console.log('next: npm run validate-content, then commit content/reviews and deploy');
}

main().catch((error: unknown) => {
  if (error instanceof ImportError) {
    console.error(`import refused, nothing written:\n${error.message}`);
    process.exit(1);
  }
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof ContentError) {
    console.error(`import refused, nothing written:\n${error.message}`);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
