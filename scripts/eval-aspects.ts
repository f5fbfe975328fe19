// `npm run eval:aspects [file] [--errors] [--json] [--throughput] [--lexicon]`: scores the build's
// aspect analyzer (same code: the shipped model with the owner's lexicon on top) on a labelled
// JSONL set, by default the project's own held-out set (test/fixtures/absa-own.jsonl); pass another
// file to score that one. `--lexicon` scores the lexicon alone, for comparison (`--model`, the
// default, is still accepted). Every report has 95% bootstrap intervals.
// Relative paths resolve against the project root.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCliArgs } from './cli-args.ts';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContentError } from '../src/content/load-content.ts';
import { loadLexicon } from '../src/content/load-lexicon.ts';
import { createAspectAnalyzer, type AspectOpinion } from '../src/core/insights/aspects.ts';
import { defaultAspectModel } from '../src/core/insights/model/default-model.ts';
import { parseJsonLines } from '../src/core/insights/corpus.ts';
import {
  LabelledSentenceSchema,
  bootstrapIntervals,
  formatAbsaReport,
  formatIntervals,
  scoreAbsa,
  type LabelledSentence,
} from '../src/core/insights/absa-metrics.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SET = 'test/fixtures/absa-own.jsonl';

function parseLabelled(source: string, file: string): LabelledSentence[] {
  return parseJsonLines(file, source, LabelledSentenceSchema);
}

const show = (aspects: readonly AspectOpinion[]) =>
  aspects.map((a) => `${a.aspect}:${a.polarity}`).join(' ') || '(none)';

async function main(): Promise<void> {
  const { values, positionals } = parseCliArgs(
    {
      allowPositionals: true,
      options: {
        errors: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        throughput: { type: 'boolean', default: false },
        model: { type: 'boolean', default: false },
        lexicon: { type: 'boolean', default: false },
      },
    },
    'npm run eval:aspects -- [FILE] [--errors] [--json] [--throughput] [--lexicon]',
  );
  const file = path.resolve(root, positionals[0] ?? DEFAULT_SET);
  const config = parseConfig();
  const { lexicon, problems } = await loadLexicon(path.resolve(root, config.CONTENT_DIR));
  if (problems.length > 0) throw new ContentError(problems);
  const analyzer = createAspectAnalyzer(
    lexicon,
    values.lexicon ? {} : { model: defaultAspectModel() },
  );
  const items = parseLabelled(await readFile(file, 'utf8'), path.relative(root, file));
  if (items.length === 0)
    throw new Error(`${path.relative(root, file)}: no labelled sentences to score`);

  const predictions = items.map((item) => analyzer.analyzeSentence(item.text, item.rating));
  const scored = items.map((item, index) => ({
    gold: item.aspects,
    predicted: predictions[index]!,
  }));
  const report = scoreAbsa(scored);

  if (values.json) {
    console.log(JSON.stringify({ ...report, intervals: bootstrapIntervals(scored) }, null, 2));
  } else {
    console.log(`${path.relative(root, file)}\n`);
    console.log(formatAbsaReport(report));
    console.log(`\n${formatIntervals(bootstrapIntervals(scored))}`);
  }
  if (values.errors) {
    console.log('\nmismatches (id: text | gold | predicted)');
    items.forEach((item, index) => {
      const key = (list: readonly AspectOpinion[]) =>
        list
          .map((a) => `${a.aspect}:${a.polarity}`)
          .sort()
          .join(' ');
      if (key(item.aspects) !== key(predictions[index]!))
        console.log(
          `${item.id}: ${item.text}\n    gold ${show(item.aspects)}\n    got  ${show(predictions[index]!)}`,
        );
    });
  }
  if (values.throughput) {
    // Sentences per second of the analyzer alone, warm, over several passes of the set.
    const passes = Math.max(1, Math.ceil(5000 / items.length));
    const started = performance.now();
    for (let pass = 0; pass < passes; pass++)
      for (const item of items) analyzer.analyzeSentence(item.text, item.rating);
    const seconds = (performance.now() - started) / 1000;
    const sentences = passes * items.length;
    console.log(
      `\nthroughput: ${Math.round(sentences / seconds)} sentences/s (${sentences} sentences in ${seconds.toFixed(2)} s)`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ContentError || error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
