// `npm run train:aspects [-- --cv]`: trains the aspect model from training/aspects/corpus/*.jsonl
// and writes src/core/insights/model/aspect-model.json. Deterministic: the same corpus and seed
// give the same bytes. `--cv` reports 5-fold cross-validation on the corpus, folded by writer set,
// for each candidate training setting (CV_CANDIDATES, a JSON list of changes to the defaults; the
// corpus is the only data settings are chosen on) and writes nothing: the pipeline the build runs
// (the model with the owner's lexicon on top), the model alone and the lexicon alone on the same
// held-out sentences (the lexicon was never fitted to the corpus), then the decision settings (the
// convolutional detector's share of detection, the thresholds and the lexicon floor): the selection
// rule's pick at each share, and its pick overall.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadLexicon } from '../src/content/load-lexicon.ts';
import { scoreAbsa } from '../src/core/insights/absa-metrics.ts';
import { createAspectAnalyzer } from '../src/core/insights/aspects.ts';
import { parseCorpusFile, type CorpusSentence } from '../src/core/insights/corpus.ts';
import { ASPECT_IDS } from '../src/core/insights/lexicon.ts';
import {
  DEFAULT_HYPERPARAMETERS,
  clauseMaxima,
  mixDetection,
  parseAspectModel,
  reportedBy,
  scoreSentence,
  serializeAspectModel,
  trainAspectModel,
  type DecisionSettings,
  type Hyperparameters,
  type ScoredSentence,
} from '../src/core/insights/model/aspect-model.ts';
import { defaultWordVectors } from '../src/core/insights/model/default-model.ts';
import { tokenizeForModel } from '../src/core/insights/model/features.ts';
import { seededRandom } from '../src/core/insights/model/logistic.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { cv: { type: 'boolean', default: false } } });

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

interface HeldOut {
  gold: Labels;
  parts: ScoredSentence['parts'];
  polarities: Labels[number]['polarity'][];
  named: ReadonlySet<string>;
  pipeline: Labels;
  lexicon: Labels;
}

function crossValidate(hyper: Hyperparameters, folds = 5): HeldOut[] {
  const foldOf = foldsByWriter(folds);
  const lexiconAlone = createAspectAnalyzer(lexicon);
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
    const pipeline = createAspectAnalyzer(lexicon, { model });
    corpus.forEach(({ text, aspects: gold }, i) => {
      if (foldOf[i] !== fold) return;
      const scored = scoreSentence(model, tokenizeForModel(text));
      const lexiconSays = lexiconAlone.analyzeSentence(text);
      out.push({
        gold,
        parts: scored.parts,
        polarities: ASPECT_IDS.map((aspect) => scored.opinion(aspect).polarity),
        named: new Set(lexiconSays.map((o) => o.aspect)),
        pipeline: pipeline.analyzeSentence(text),
        lexicon: lexiconSays,
      });
    });
  }
  return out;
}

/** The decision settings plus the convolutional detector's share of detection. */
type Setting = DecisionSettings & Pick<Hyperparameters, 'convWeight'>;

/** What the pipeline answers for a held-out sentence at other decision settings (no retraining). */
function decide(item: HeldOut, setting: Setting): Labels {
  const probabilities = mixDetection(item.parts.sentence, setting.convWeight);
  const clauseProbabilities = clauseMaxima(item.parts.clauses, setting.convWeight);
  return ASPECT_IDS.flatMap((aspect, k) =>
    reportedBy(setting, probabilities[k]!, clauseProbabilities[k]!, item.named.has(aspect)) === null
      ? []
      : [{ aspect, polarity: item.polarities[k]! }],
  );
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
    const score = (pick: (item: HeldOut) => Labels) =>
      scoreAbsa(heldOut.map((item) => ({ gold: item.gold, predicted: pick(item) })));
    console.log(`training ${JSON.stringify(change)}: ${heldOut.length} held-out sentences`);
    console.log(
      line(
        'pipeline (as the build runs it)',
        score((item) => item.pipeline),
      ),
    );
    console.log(
      line(
        'model alone',
        score((item) => decide(item, { ...hyper, lexiconFloor: 2 })),
      ),
    );
    console.log(
      line(
        'lexicon alone',
        score((item) => item.lexicon),
      ),
    );
    // The decision settings need no retraining: each is scored on the same held-out outputs. The
    // rule that picks one: within half a point of the best joint F1 and of the best aspect F1, the
    // highest no-aspect accuracy. Printed: the pick at each share of the convolutional detector.
    const grid = (hyper.convFilters > 0 ? [0, 0.3, 0.5, 0.7] : [0]).flatMap((convWeight) =>
      [0.5, 0.6, 0.7, 0.8, 0.9, 0.95].flatMap((threshold) =>
        [0.8, 0.9, 0.95, 0.98, 2].flatMap((clauseThreshold) =>
          [0.05, 0.1, 0.2, 0.3].map((lexiconFloor) => {
            const setting = { convWeight, threshold, clauseThreshold, lexiconFloor };
            return { setting, report: score((item) => decide(item, setting)) };
          }),
        ),
      ),
    );
    // Compared as printed, in tenths of a point.
    const tenths = (value: number) => Math.round(value * 1000);
    const pick = (candidates: typeof grid) => {
      const best = (get: (r: ReturnType<typeof scoreAbsa>) => number) =>
        Math.max(...candidates.map(({ report }) => tenths(get(report))));
      const [joint, aspect] = [best((r) => r.joint.f1), best((r) => r.aspect_detection.f1)];
      return candidates
        .filter(({ report }) => tenths(report.joint.f1) >= joint - 5)
        .filter(({ report }) => tenths(report.aspect_detection.f1) >= aspect - 5)
        .sort((a, b) => b.report.no_aspect_accuracy - a.report.no_aspect_accuracy)[0]!;
    };
    const picked = pick(grid);
    for (const convWeight of new Set(grid.map(({ setting }) => setting.convWeight))) {
      const { setting, report } = pick(grid.filter((g) => g.setting.convWeight === convWeight));
      const name = `conv ${convWeight} threshold ${setting.threshold} clause ${setting.clauseThreshold === 2 ? 'off' : setting.clauseThreshold} floor ${setting.lexiconFloor}`;
      console.log(`${setting === picked.setting ? '*' : ' '} ${line(name, report)}`);
    }
    console.log(`(* the rule's pick; ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
} else {
  const started = performance.now();
  const model = trainAspectModel(corpus, vectors);
  const out = path.join(root, 'src/core/insights/model/aspect-model.json');
  const bytes = serializeAspectModel(model);
  await writeFile(out, bytes);
  console.log(
    `trained on ${corpus.length} sentences in ${((performance.now() - started) / 1000).toFixed(1)} s; ${(bytes.length / 1024).toFixed(0)} KB → ${path.relative(root, out)}`,
  );
}
