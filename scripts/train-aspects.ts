// `npm run train:aspects [-- --cv]`: trains the aspect model from training/aspects/corpus/*.jsonl
// and writes src/core/insights/model/aspect-model.json. Deterministic: the same corpus and seed
// give the same bytes. `--cv` reports 5-fold cross-validation on the corpus for each candidate
// setting (the only data settings are chosen on) and writes nothing: the model alone, the
// pipeline the build runs (the model with the owner's lexicon on top), and the lexicon alone on the
// same held-out sentences (the lexicon was never fitted to the corpus).
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadLexicon } from '../src/content/load-lexicon.ts';
import { scoreAbsa } from '../src/core/insights/absa-metrics.ts';
import { createAspectAnalyzer } from '../src/core/insights/aspects.ts';
import { parseCorpusFile, type CorpusSentence } from '../src/core/insights/corpus.ts';
import {
  DEFAULT_HYPERPARAMETERS,
  predictAspects,
  serializeAspectModel,
  trainAspectModel,
  type Hyperparameters,
} from '../src/core/insights/model/aspect-model.ts';
import { seededRandom } from '../src/core/insights/model/logistic.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { cv: { type: 'boolean', default: false } } });

const dir = path.join(root, 'training/aspects/corpus');
const corpus: CorpusSentence[] = [];
for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
  corpus.push(
    ...parseCorpusFile(
      `training/aspects/corpus/${name}`,
      await readFile(path.join(dir, name), 'utf8'),
    ),
  );

const { lexicon } = await loadLexicon(path.join(root, 'content'));

type Pair = { gold: CorpusSentence['aspects']; predicted: CorpusSentence['aspects'] };

function crossValidate(hyper: Hyperparameters, folds = 5) {
  const random = seededRandom(7);
  const order = corpus.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const pairs: Record<'model' | 'pipeline' | 'lexicon', Pair[]> = {
    model: [],
    pipeline: [],
    lexicon: [],
  };
  const lexiconAlone = createAspectAnalyzer(lexicon);
  for (let fold = 0; fold < folds; fold++) {
    const test = new Set(order.filter((_, k) => k % folds === fold));
    const model = trainAspectModel(
      corpus.filter((_, i) => !test.has(i)),
      hyper,
    );
    const pipeline = createAspectAnalyzer(lexicon, { model });
    for (const i of test) {
      const { text, aspects: gold } = corpus[i]!;
      pairs.model.push({
        gold,
        predicted: predictAspects(model, text).map(({ aspect, polarity }) => ({
          aspect,
          polarity,
        })),
      });
      pairs.pipeline.push({ gold, predicted: pipeline.analyzeSentence(text) });
      pairs.lexicon.push({ gold, predicted: lexiconAlone.analyzeSentence(text) });
    }
  }
  return {
    model: scoreAbsa(pairs.model),
    pipeline: scoreAbsa(pairs.pipeline),
    lexicon: scoreAbsa(pairs.lexicon),
  };
}

if (values.cv) {
  const candidates: Partial<Hyperparameters>[] = (
    process.env['CV_CANDIDATES']
      ? JSON.parse(process.env['CV_CANDIDATES'])
      : [{}, { threshold: 0.5 }, { threshold: 0.7 }, { l2: 1e-4 }, { l2: 3e-4 }, { l2: 1e-3 }]
  ) as Partial<Hyperparameters>[];
  for (const change of candidates) {
    const hyper = { ...DEFAULT_HYPERPARAMETERS, ...change };
    const started = performance.now();
    const reports = crossValidate(hyper);
    for (const [name, report] of Object.entries(reports))
      console.log(
        `${JSON.stringify(change).padEnd(24)} ${name.padEnd(9)} aspect F1 ${(report.aspect_detection.f1 * 100).toFixed(1)}  polarity ${(report.polarity_accuracy * 100).toFixed(1)}  joint F1 ${(report.joint.f1 * 100).toFixed(1)}  no-aspect ${(report.no_aspect_accuracy * 100).toFixed(1)}`,
      );
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
} else {
  const started = performance.now();
  const model = trainAspectModel(corpus);
  const out = path.join(root, 'src/core/insights/model/aspect-model.json');
  const bytes = serializeAspectModel(model);
  await writeFile(out, bytes);
  console.log(
    `trained on ${corpus.length} sentences in ${((performance.now() - started) / 1000).toFixed(1)} s; ${(bytes.length / 1024).toFixed(0)} KB → ${path.relative(root, out)}`,
  );
}
