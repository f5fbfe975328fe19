// `npm run train:aspects [-- --cv] [-- --out FILE]`: trains the aspect model from
// training/aspects/corpus/*.jsonl, chooses its decision settings (the convolutional detector's
// share, the sentence and clause thresholds, the lexicon floor and the "any aspect" gate) on the
// validation set training/aspects/validation/*.jsonl by the selection rule (`pickSetting`), and
// writes src/core/insights/model/aspect-model.json (or FILE). The validation set was written apart
// from the corpus, by writers who read only the labelling guide: cross-validation over the corpus
// proved optimistic about settings on other writers' text. Deterministic: the same corpus,
// validation set and seed give the same bytes.
//
// `--cv` writes nothing: it reports 5-fold cross-validation on the corpus, folded by writer set, for
// each candidate training setting (CV_CANDIDATES, a JSON list of changes to the defaults): the
// pipeline at the default decision settings (the model with the owner's lexicon on top), the model
// alone and the lexicon alone on the same held-out sentences (the lexicon was never fitted to the
// corpus), then the selection rule's pick over the decision settings at each share of the
// convolutional detector and at each gate, and the shipped model's settings.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCliArgs } from './cli-args.ts';
import { loadLexicon } from '../src/content/load-lexicon.ts';
import {
  LabelledSentenceSchema,
  pickSetting,
  scoreAbsa,
} from '../src/core/insights/absa-metrics.ts';
import {
  parseCorpusFile,
  parseJsonLines,
  type CorpusSentence,
} from '../src/core/insights/corpus.ts';
import {
  DEFAULT_HYPERPARAMETERS,
  parseAspectModel,
  serializeAspectModel,
  trainAspectModel,
  type Hyperparameters,
} from '../src/core/insights/model/aspect-model.ts';
import {
  decide,
  heldOutOf,
  scoreHeldOut,
  scoreSettings,
  withChosenSettings,
  type HeldOut,
  type ScoredSetting,
  type Setting,
} from '../src/core/insights/model/decision-settings.ts';
import { defaultWordVectors } from '../src/core/insights/model/default-model.ts';
import { seededRandom } from '../src/core/insights/model/logistic.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseCliArgs(
  { options: { cv: { type: 'boolean', default: false }, out: { type: 'string' } } },
  'npm run train:aspects -- [--cv] [--out FILE]',
);

/** The writer set of a corpus file: the letters before "-part" (each set has one writer). */
const writerSet = (file: string) => file.replace(/-part\d+\.jsonl$/, '');

const dir = path.join(root, 'training/aspects/corpus');
const corpus: CorpusSentence[] = [];
const corpusSets: string[] = [];
for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
  for (const sentence of parseCorpusFile(
    `training/aspects/corpus/${name}`,
    await readFile(path.join(dir, name), 'utf8'),
  )) {
    corpus.push(sentence);
    corpusSets.push(writerSet(name));
  }

const validationDir = path.join(root, 'training/aspects/validation');
const validation: { text: string; aspects: Labels }[] = [];
for (const name of (await readdir(validationDir)).filter((n) => n.endsWith('.jsonl')).sort())
  validation.push(
    ...parseJsonLines(
      `training/aspects/validation/${name}`,
      await readFile(path.join(validationDir, name), 'utf8'),
      LabelledSentenceSchema,
    ),
  );

const modelFile = path.join(root, 'src/core/insights/model/aspect-model.json');
const { lexicon } = await loadLexicon(path.join(root, 'content'));
const vectors = defaultWordVectors();

type Labels = CorpusSentence['aspects'];

/**
 * Folds by writer set, not by sentence: a held-out fold is text by writers the model never read,
 * which is what a new business's reviews are. Sets are shuffled (seeded) and dealt round-robin.
 */
function foldsByWriter(folds: number): number[] {
  const sets = [...new Set(corpusSets)].sort();
  const random = seededRandom(11);
  for (let i = sets.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sets[i], sets[j]] = [sets[j]!, sets[i]!];
  }
  return corpusSets.map((set) => sets.indexOf(set) % folds);
}

function crossValidate(hyper: Hyperparameters, folds = 5): HeldOut[] {
  const foldOf = foldsByWriter(folds);
  const out: HeldOut[] = [];
  for (let fold = 0; fold < folds; fold++) {
    // Scored as shipped: serialized (rounded and pruned) and read back.
    const model = parseAspectModel(
      serializeAspectModel(
        trainAspectModel(
          corpus.filter((_, i) => foldOf[i] !== fold),
          vectors,
          hyper,
        ),
        hyper.prune,
      ),
      vectors,
    );
    out.push(
      ...heldOutOf(
        model,
        lexicon,
        corpus.filter((_, i) => foldOf[i] === fold),
      ),
    );
  }
  return out;
}

const settingName = (setting: Setting) =>
  `conv ${setting.convWeight} threshold ${setting.threshold} clause ${setting.clauseThreshold === 2 ? 'off' : setting.clauseThreshold} floor ${setting.lexiconFloor} gate ${setting.gate === 0 ? 'off' : setting.gate}`;

/** The rule's pick overall (marked *), then its pick at each value of one setting. */
function printPicks(scored: ScoredSetting[], by: 'convWeight' | 'gate'): ScoredSetting {
  const picked = pickSetting(scored);
  for (const value of new Set(scored.map(({ setting }) => setting[by]))) {
    const { setting, report } = pickSetting(scored.filter((g) => g.setting[by] === value));
    console.log(`${setting === picked.setting ? '*' : ' '} ${line(settingName(setting), report)}`);
  }
  return picked;
}

const line = (name: string, report: ReturnType<typeof scoreAbsa>) =>
  `${name.padEnd(50)} aspect F1 ${(report.aspect_detection.f1 * 100).toFixed(1)}  polarity ${(report.polarity_accuracy * 100).toFixed(1)}  joint F1 ${(report.joint.f1 * 100).toFixed(1)}  no-aspect ${(report.no_aspect_accuracy * 100).toFixed(1)}`;

if (values.cv) {
  const candidates: Partial<Hyperparameters>[] = (
    process.env['CV_CANDIDATES'] ? JSON.parse(process.env['CV_CANDIDATES']) : [{}]
  ) as Partial<Hyperparameters>[];
  for (const change of candidates) {
    const hyper = { ...DEFAULT_HYPERPARAMETERS, ...change };
    const started = performance.now();
    const heldOut = crossValidate(hyper);
    console.log(`training ${JSON.stringify(change)}: ${heldOut.length} held-out sentences`);
    console.log(
      line(
        'pipeline at the default settings',
        scoreHeldOut(heldOut, (item) => item.pipeline),
      ),
    );
    console.log(
      line(
        'model alone',
        scoreHeldOut(heldOut, (item) => decide(item, { ...hyper, lexiconFloor: 2 })),
      ),
    );
    console.log(
      line(
        'lexicon alone',
        scoreHeldOut(heldOut, (item) => item.lexicon),
      ),
    );
    const scored = scoreSettings(heldOut, hyper.convFilters > 0);
    printPicks(scored, 'convWeight');
    printPicks(scored, 'gate');
    // The settings the shipped model was given (chosen on the validation set), scored here too.
    const shipped = JSON.parse(await readFile(modelFile, 'utf8')) as Setting;
    const atShipped = scored.find(({ setting }) =>
      (['convWeight', 'threshold', 'clauseThreshold', 'lexiconFloor', 'gate'] as const).every(
        (key) => setting[key] === shipped[key],
      ),
    );
    if (atShipped)
      console.log(`= ${line(`${settingName(atShipped.setting)} (shipped)`, atShipped.report)}`);
    console.log(`(* the rule's pick; ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
} else {
  const started = performance.now();
  // The settings are chosen for the model as it ships (rounded and pruned, then read back), which
  // is what the build applies them to.
  const trained = parseAspectModel(
    serializeAspectModel(trainAspectModel(corpus, vectors)),
    vectors,
  );
  const { model, scored } = withChosenSettings(trained, lexicon, validation);
  console.log(`decision settings scored on ${validation.length} validation sentences:`);
  printPicks(scored, 'gate');
  console.log("(* the rule's pick, shipped)");

  const bytes = serializeAspectModel(model);
  const out = values.out === undefined ? modelFile : path.resolve(values.out);
  await writeFile(out, bytes);
  console.log(
    `trained on ${corpus.length} sentences in ${((performance.now() - started) / 1000).toFixed(1)} s; ${(bytes.length / 1024).toFixed(0)} KB → ${path.relative(root, out)}`,
  );
}
