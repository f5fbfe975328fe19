// Choosing the decision settings of a trained aspect model (the convolutional detector's share, the
// sentence and clause thresholds, the lexicon floor and the "any aspect" gate) on labelled sentences
// it was not trained on. None needs retraining: the model scores each sentence once and every
// setting is decided from the same raw scores. `npm run train:aspects` chooses the shipped settings
// on the validation set this way, and its `--cv` scores them on held-out folds of the corpus.
import { pickSetting, scoreAbsa, type AbsaReport } from '../absa-metrics.ts';
import { createAspectAnalyzer, type AspectOpinion } from '../aspects.ts';
import { ASPECT_IDS, type Lexicon } from '../lexicon.ts';
import {
  anyProbabilityOf,
  clauseMaxima,
  mixDetection,
  reportedBy,
  scoreSentence,
  type AspectModel,
  type DecisionSettings,
  type Hyperparameters,
  type ScoredSentence,
} from './aspect-model.ts';
import { tokenizeForModel } from './features.ts';

type Labels = readonly AspectOpinion[];

/** What a model said of one labelled sentence, and what its owner's lexicon names there. */
export interface HeldOut {
  gold: Labels;
  parts: ScoredSentence['parts'];
  polarities: AspectOpinion['polarity'][];
  named: ReadonlySet<string>;
  /** The pipeline's answer at the model's own settings. */
  pipeline: AspectOpinion[];
  /** The lexicon's answer alone. */
  lexicon: AspectOpinion[];
}

/** The decision settings plus the convolutional detector's share of detection. */
export type Setting = DecisionSettings & Pick<Hyperparameters, 'convWeight'>;

export interface ScoredSetting {
  setting: Setting;
  report: AbsaReport;
}

/** What a model says of labelled sentences it was not trained on. */
export function heldOutOf(
  model: AspectModel,
  lexicon: Lexicon,
  sentences: readonly { text: string; aspects: Labels }[],
): HeldOut[] {
  const pipeline = createAspectAnalyzer(lexicon, { model });
  const lexiconAlone = createAspectAnalyzer(lexicon);
  return sentences.map(({ text, aspects: gold }) => {
    const scored = scoreSentence(model, tokenizeForModel(text));
    const lexiconSays = lexiconAlone.analyzeSentence(text);
    return {
      gold,
      parts: scored.parts,
      polarities: ASPECT_IDS.map((aspect) => scored.opinion(aspect).polarity),
      named: new Set(lexiconSays.map((o) => o.aspect)),
      pipeline: pipeline.analyzeSentence(text),
      lexicon: lexiconSays,
    };
  });
}

/** A held-out sentence's detection probabilities at each share of the convolutional detector. */
const mixes = new WeakMap<HeldOut, Map<number, { sentence: number[]; clauses: number[] }>>();

function mixed(item: HeldOut, convWeight: number) {
  let byWeight = mixes.get(item);
  if (!byWeight) mixes.set(item, (byWeight = new Map()));
  let mix = byWeight.get(convWeight);
  if (!mix) {
    mix = {
      sentence: mixDetection(item.parts.sentence, convWeight),
      clauses: clauseMaxima(item.parts.clauses, convWeight),
    };
    byWeight.set(convWeight, mix);
  }
  return mix;
}

/** What the pipeline answers for a held-out sentence at other decision settings. */
export function decide(item: HeldOut, setting: Setting): AspectOpinion[] {
  const { sentence, clauses } = mixed(item, setting.convWeight);
  const any = anyProbabilityOf(sentence, clauses);
  return ASPECT_IDS.flatMap((aspect, k) =>
    reportedBy(setting, sentence[k]!, clauses[k]!, item.named.has(aspect), any) === null
      ? []
      : [{ aspect, polarity: item.polarities[k]! }],
  );
}

export const scoreHeldOut = (
  items: readonly HeldOut[],
  answer: (item: HeldOut) => readonly AspectOpinion[],
): AbsaReport => scoreAbsa(items.map((item) => ({ gold: item.gold, predicted: answer(item) })));

/**
 * Every decision setting, scored on the same held-out sentences: the convolutional detector's share
 * (only 0 for a model without one), the sentence threshold, the clause threshold (2: clauses off),
 * the lexicon floor and the "any aspect" gate (0: off).
 */
export function scoreSettings(items: readonly HeldOut[], hasConv: boolean): ScoredSetting[] {
  return (hasConv ? [0, 0.3, 0.5, 0.7] : [0]).flatMap((convWeight) =>
    [0.5, 0.6, 0.7, 0.8, 0.9, 0.95].flatMap((threshold) =>
      [0.8, 0.9, 0.95, 0.98, 2].flatMap((clauseThreshold) =>
        [0.05, 0.1, 0.2, 0.3].flatMap((lexiconFloor) =>
          [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((gate) => {
            const setting = { convWeight, threshold, clauseThreshold, lexiconFloor, gate };
            return { setting, report: scoreHeldOut(items, (item) => decide(item, setting)) };
          }),
        ),
      ),
    ),
  );
}

/** The model with the decision settings the selection rule picks on held-out labelled sentences. */
export function withChosenSettings(
  model: AspectModel,
  lexicon: Lexicon,
  sentences: readonly { text: string; aspects: Labels }[],
): { model: AspectModel; scored: ScoredSetting[]; picked: ScoredSetting } {
  const scored = scoreSettings(heldOutOf(model, lexicon, sentences), model.conv !== null);
  const picked = pickSetting(scored);
  return { model: { ...model, ...picked.setting }, scored, picked };
}
