// `npm run --silent aspects [-- --explain] [-- --lexicon]`: the build's aspect analyzer (same code:
// the shipped model with the owner's lexicon on top; `--lexicon` runs the lexicon alone, `--model`
// is accepted as the default; `--explain` shows each step) on JSON lines {"id", "text", "rating"?}
// from stdin, one {"id", "aspects"} line out per
// input. A text of several sentences gets the review-level answer the insights dataset uses.
// A bad line is reported on stderr with its line number and skipped; the exit code is then 1.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCliArgs } from './cli-args.ts';
import { jsonLines } from './json-lines.ts';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError } from '../src/content/load-content.ts';
import { loadLexicon } from '../src/content/load-lexicon.ts';
import { createAspectAnalyzer } from '../src/core/insights/aspects.ts';
import { defaultAspectModel } from '../src/core/insights/model/default-model.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Other keys are ignored, so a labelled set (with its "aspects") can be piped in as it is.
const InputSchema = z.object({
  id: z.string({ error: 'expected "id" as a string' }).min(1, { error: '"id" is empty' }),
  text: z.string({ error: 'expected "text" as a string' }),
  rating: z
    .number({ error: 'expected "rating" as a whole number 1 to 5' })
    .int({ error: 'expected "rating" as a whole number 1 to 5' })
    .min(1, { error: 'expected "rating" as a whole number 1 to 5' })
    .max(5, { error: 'expected "rating" as a whole number 1 to 5' })
    .nullish(),
});

async function main(): Promise<number> {
  const { values } = parseCliArgs(
    {
      options: {
        explain: { type: 'boolean', default: false },
        model: { type: 'boolean', default: false },
        lexicon: { type: 'boolean', default: false },
      },
    },
    'npm run --silent aspects -- [--explain] [--lexicon] < sentences.jsonl',
  );
  const config = parseConfig();
  const { lexicon, problems } = await loadLexicon(path.resolve(root, config.CONTENT_DIR));
  if (problems.length > 0) throw new ContentError(problems);
  const analyzer = createAspectAnalyzer(
    lexicon,
    values.lexicon ? {} : { model: defaultAspectModel() },
  );

  let lineNumber = 0;
  let bad = 0;
  for await (const line of jsonLines(process.stdin)) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      bad += 1;
      console.error(`line ${lineNumber}: not JSON (${(error as Error).message})`);
      continue;
    }
    const input = InputSchema.safeParse(value);
    if (!input.success) {
      bad += 1;
      console.error(`line ${lineNumber}: ${input.error.issues[0]!.message}`);
      continue;
    }
    const { id, text, rating } = input.data;
    const review = analyzer.analyzeReview(text, rating ?? undefined);
    const out: Record<string, unknown> = { id, aspects: review.aspects };
    if (values.explain)
      out['sentences'] = review.sentences.map((s) =>
        analyzer.explainSentence(s.text, rating ?? undefined),
      );
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
  if (bad > 0) console.error(`${bad} bad line${bad === 1 ? '' : 's'} skipped`);
  return bad > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ContentError || error instanceof ConfigError) console.error(error.message);
    else console.error(error);
    process.exitCode = 1;
  },
);
