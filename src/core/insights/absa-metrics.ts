// Scores aspect predictions against a labelled set, as docs/aspects.md (scoring) defines: aspect detection
// micro P/R/F1, polarity accuracy on detected aspects, joint micro F1, no-aspect accuracy and a
// confusion table. Pure; `npm run eval:aspects` prints it.
import { z } from 'zod';
import { ASPECT_IDS, AspectIdSchema, type AspectId } from './lexicon.ts';
import type { AspectOpinion } from './aspects.ts';
import { POLARITIES, type Polarity } from './lexicon.ts';

export const PolaritySchema = z.enum(POLARITIES);

export const AspectOpinionSchema = z
  .object({ aspect: AspectIdSchema, polarity: PolaritySchema })
  .strict();

/** One line of a labelled set (`test/fixtures/absa-own.jsonl`; labels as in docs/aspects.md). */
export const LabelledSentenceSchema = z
  .object({
    id: z.string().min(1),
    text: z.string(),
    rating: z.number().int().min(1).max(5).optional(),
    aspects: z
      .array(AspectOpinionSchema)
      .refine((list) => new Set(list.map((a) => a.aspect)).size === list.length, {
        message: 'at most one label per aspect',
      }),
  })
  .strict();

export type LabelledSentence = z.infer<typeof LabelledSentenceSchema>;

export interface Scored {
  gold: readonly AspectOpinion[];
  predicted: readonly AspectOpinion[];
}

export interface PrecisionRecall {
  precision: number;
  recall: number;
  f1: number;
  true_positives: number;
  false_positives: number;
  false_negatives: number;
}

export interface AspectRow extends PrecisionRecall {
  aspect: AspectId;
  gold: number;
  predicted: number;
  /** Among correctly detected pairs: gold polarity → predicted polarity → count. */
  polarity: Record<Polarity, Record<Polarity, number>>;
}

export interface AbsaReport {
  sentences: number;
  aspect_detection: PrecisionRecall;
  polarity_accuracy: number;
  polarity_correct: number;
  polarity_total: number;
  joint: PrecisionRecall;
  no_aspect_accuracy: number;
  no_aspect_correct: number;
  no_aspect_total: number;
  per_aspect: AspectRow[];
  /** Over all correctly detected pairs: gold polarity → predicted polarity → count. */
  polarity_confusion: Record<Polarity, Record<Polarity, number>>;
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function precisionRecall(tp: number, fp: number, fn: number): PrecisionRecall {
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return {
    precision,
    recall,
    f1: ratio(2 * precision * recall, precision + recall),
    true_positives: tp,
    false_positives: fp,
    false_negatives: fn,
  };
}

function emptyConfusion(): Record<Polarity, Record<Polarity, number>> {
  const row = () => ({ positive: 0, negative: 0, neutral: 0 });
  return { positive: row(), negative: row(), neutral: row() };
}

export function scoreAbsa(items: readonly Scored[]): AbsaReport {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let jointTp = 0;
  let jointFp = 0;
  let jointFn = 0;
  let noAspectTotal = 0;
  let noAspectCorrect = 0;
  const confusion = emptyConfusion();
  const rows = new Map(
    ASPECT_IDS.map((aspect) => [
      aspect,
      { aspect, tp: 0, fp: 0, fn: 0, gold: 0, predicted: 0, polarity: emptyConfusion() },
    ]),
  );

  for (const { gold, predicted } of items) {
    const goldBy = new Map(gold.map((a) => [a.aspect, a.polarity]));
    const predictedBy = new Map(predicted.map((a) => [a.aspect, a.polarity]));
    if (gold.length === 0) {
      noAspectTotal += 1;
      if (predicted.length === 0) noAspectCorrect += 1;
    }
    for (const [aspect, polarity] of goldBy) {
      const row = rows.get(aspect)!;
      row.gold += 1;
      const guess = predictedBy.get(aspect);
      if (guess === undefined) {
        fn += 1;
        row.fn += 1;
        jointFn += 1;
        continue;
      }
      tp += 1;
      row.tp += 1;
      confusion[polarity][guess] += 1;
      row.polarity[polarity][guess] += 1;
      if (guess === polarity) jointTp += 1;
      else {
        jointFp += 1;
        jointFn += 1;
      }
    }
    for (const aspect of predictedBy.keys()) {
      const row = rows.get(aspect)!;
      row.predicted += 1;
      if (!goldBy.has(aspect)) {
        fp += 1;
        row.fp += 1;
        jointFp += 1;
      }
    }
  }

  const polarityCorrect = POLARITIES.reduce((sum, p) => sum + confusion[p][p], 0);
  return {
    sentences: items.length,
    aspect_detection: precisionRecall(tp, fp, fn),
    polarity_accuracy: ratio(polarityCorrect, tp),
    polarity_correct: polarityCorrect,
    polarity_total: tp,
    joint: precisionRecall(jointTp, jointFp, jointFn),
    no_aspect_accuracy: ratio(noAspectCorrect, noAspectTotal),
    no_aspect_correct: noAspectCorrect,
    no_aspect_total: noAspectTotal,
    per_aspect: [...rows.values()].map((row) => ({
      aspect: row.aspect,
      gold: row.gold,
      predicted: row.predicted,
      polarity: row.polarity,
      ...precisionRecall(row.tp, row.fp, row.fn),
    })),
    polarity_confusion: confusion,
  };
}

const pct = (value: number) => (value * 100).toFixed(1).padStart(5);

/**
 * The rule that picks decision settings from candidates scored on the same sentences: within half a
 * point of the best joint F1 and of the best aspect F1, the highest no-aspect accuracy. Figures are
 * compared as printed, in tenths of a point; ties go to the higher joint F1, then the higher aspect
 * F1, then the first candidate.
 */
export function pickSetting<T extends { report: AbsaReport }>(candidates: readonly T[]): T {
  if (candidates.length === 0) throw new Error('pickSetting: no candidates');
  const tenths = (value: number) => Math.round(value * 1000);
  const best = (get: (r: AbsaReport) => number) =>
    Math.max(...candidates.map(({ report }) => tenths(get(report))));
  const [joint, aspect] = [best((r) => r.joint.f1), best((r) => r.aspect_detection.f1)];
  return candidates
    .filter(({ report }) => tenths(report.joint.f1) >= joint - 5)
    .filter(({ report }) => tenths(report.aspect_detection.f1) >= aspect - 5)
    .sort(
      (a, b) =>
        tenths(b.report.no_aspect_accuracy) - tenths(a.report.no_aspect_accuracy) ||
        tenths(b.report.joint.f1) - tenths(a.report.joint.f1) ||
        tenths(b.report.aspect_detection.f1) - tenths(a.report.aspect_detection.f1),
    )[0]!;
}

/** The report as a plain-text table for a terminal. */
export function formatAbsaReport(report: AbsaReport): string {
  const pr = (name: string, m: PrecisionRecall) =>
    `${name.padEnd(22)} P ${pct(m.precision)}  R ${pct(m.recall)}  F1 ${pct(m.f1)}   (tp ${m.true_positives}, fp ${m.false_positives}, fn ${m.false_negatives})`;
  const lines = [
    `sentences              ${report.sentences}`,
    pr('aspect detection', report.aspect_detection),
    `polarity accuracy      ${pct(report.polarity_accuracy)}   (${report.polarity_correct}/${report.polarity_total} detected pairs)`,
    pr('joint aspect+polarity', report.joint),
    `no-aspect accuracy     ${pct(report.no_aspect_accuracy)}   (${report.no_aspect_correct}/${report.no_aspect_total})`,
    '',
    'aspect                 gold  pred    P      R      F1   | polarity on detected (gold→pred: + − 0)',
  ];
  const cell = (row: Record<Polarity, number>) =>
    `${row.positive}/${row.negative}/${row.neutral}`.padEnd(8);
  for (const row of report.per_aspect) {
    lines.push(
      `${row.aspect.padEnd(22)} ${String(row.gold).padStart(4)}  ${String(row.predicted).padStart(4)}  ${pct(row.precision)}  ${pct(row.recall)}  ${pct(row.f1)} | +→ ${cell(row.polarity.positive)} −→ ${cell(row.polarity.negative)} 0→ ${cell(row.polarity.neutral)}`,
    );
  }
  const c = report.polarity_confusion;
  lines.push(
    '',
    'polarity confusion (rows gold, columns predicted)',
    '            positive  negative  neutral',
    ...POLARITIES.map(
      (p) =>
        `${p.padEnd(10)}  ${String(c[p].positive).padStart(8)}  ${String(c[p].negative).padStart(8)}  ${String(c[p].neutral).padStart(7)}`,
    ),
  );
  return lines.join('\n');
}

export interface Interval {
  low: number;
  high: number;
}

export interface AbsaIntervals {
  resamples: number;
  aspect_f1: Interval;
  polarity_accuracy: Interval;
  joint_f1: Interval;
  no_aspect_accuracy: Interval;
}

/**
 * 95% confidence intervals by the percentile bootstrap: `resamples` sets of sentences drawn with
 * replacement (seeded, so the same run gives the same figures), scored like the set itself.
 */
export function bootstrapIntervals(
  items: readonly Scored[],
  resamples = 1000,
  seed = 1,
): AbsaIntervals {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const samples = {
    aspect: [] as number[],
    polarity: [] as number[],
    joint: [] as number[],
    none: [] as number[],
  };
  for (let r = 0; r < resamples; r++) {
    const sample = Array.from(
      { length: items.length },
      () => items[Math.floor(random() * items.length)]!,
    );
    const report = scoreAbsa(sample);
    samples.aspect.push(report.aspect_detection.f1);
    samples.polarity.push(report.polarity_accuracy);
    samples.joint.push(report.joint.f1);
    samples.none.push(report.no_aspect_accuracy);
  }
  const interval = (values: number[]): Interval => {
    const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))] ?? Number.NaN;
    return { low: at(0.025), high: at(0.975) };
  };
  return {
    resamples,
    aspect_f1: interval(samples.aspect),
    polarity_accuracy: interval(samples.polarity),
    joint_f1: interval(samples.joint),
    no_aspect_accuracy: interval(samples.none),
  };
}

export function formatIntervals(intervals: AbsaIntervals): string {
  const range = (i: Interval) => `[${pct(i.low)}, ${pct(i.high)}]`;
  return [
    `95% bootstrap intervals (${intervals.resamples} resamples of sentences)`,
    `  aspect F1 ${range(intervals.aspect_f1)}  polarity ${range(intervals.polarity_accuracy)}  joint F1 ${range(intervals.joint_f1)}  no-aspect ${range(intervals.no_aspect_accuracy)}`,
  ].join('\n');
}
