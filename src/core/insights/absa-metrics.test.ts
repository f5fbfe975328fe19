import { expect, test } from 'vitest';
import {
  LabelledSentenceSchema,
  formatAbsaReport,
  pickSetting,
  scoreAbsa,
} from './absa-metrics.ts';
import type { AspectOpinion } from './aspects.ts';

const pos = (aspect: AspectOpinion['aspect']): AspectOpinion => ({ aspect, polarity: 'positive' });
const neg = (aspect: AspectOpinion['aspect']): AspectOpinion => ({ aspect, polarity: 'negative' });

test('counts detection per (sentence, aspect) pair, regardless of polarity', () => {
  const report = scoreAbsa([
    { gold: [pos('workmanship'), neg('communication')], predicted: [pos('workmanship')] },
    { gold: [pos('cleanup')], predicted: [neg('cleanup'), pos('warranty')] },
  ]);
  expect(report.aspect_detection).toMatchObject({
    true_positives: 2,
    false_positives: 1,
    false_negatives: 1,
  });
  expect(report.aspect_detection.precision).toBeCloseTo(2 / 3);
  expect(report.aspect_detection.recall).toBeCloseTo(2 / 3);
  expect(report.aspect_detection.f1).toBeCloseTo(2 / 3);
});

test('polarity accuracy is over correctly detected pairs only', () => {
  const report = scoreAbsa([
    { gold: [pos('workmanship'), neg('cleanup')], predicted: [pos('workmanship'), pos('cleanup')] },
    { gold: [pos('warranty')], predicted: [] },
  ]);
  expect(report.polarity_accuracy).toBe(0.5);
  expect(report.polarity_confusion.negative.positive).toBe(1);
  expect(report.polarity_confusion.positive.positive).toBe(1);
});

test('a wrong polarity is one false positive and one false negative in the joint score', () => {
  const report = scoreAbsa([{ gold: [pos('cleanup')], predicted: [neg('cleanup')] }]);
  expect(report.joint).toMatchObject({ true_positives: 0, false_positives: 1, false_negatives: 1 });
  expect(report.joint.f1).toBe(0);
  expect(report.aspect_detection.f1).toBe(1);
});

test('no-aspect accuracy is the share of empty gold sentences predicted empty', () => {
  const report = scoreAbsa([
    { gold: [], predicted: [] },
    { gold: [], predicted: [pos('timeliness')] },
    { gold: [pos('timeliness')], predicted: [pos('timeliness')] },
  ]);
  expect(report.no_aspect_accuracy).toBe(0.5);
  expect(report.no_aspect_total).toBe(2);
});

test('per-aspect rows and their polarity confusion', () => {
  const report = scoreAbsa([
    { gold: [pos('price_value')], predicted: [neg('price_value')] },
    { gold: [], predicted: [pos('price_value')] },
  ]);
  const row = report.per_aspect.find((r) => r.aspect === 'price_value')!;
  expect(row).toMatchObject({ gold: 1, predicted: 2, true_positives: 1, false_positives: 1 });
  expect(row.polarity.positive.negative).toBe(1);
  expect(report.per_aspect.map((r) => r.aspect)).toHaveLength(10);
});

test('an empty set scores zeros, not NaN', () => {
  const report = scoreAbsa([]);
  expect(report.aspect_detection.f1).toBe(0);
  expect(report.polarity_accuracy).toBe(0);
  expect(formatAbsaReport(report)).not.toContain('NaN');
});

test('a labelled line with two labels for one aspect is rejected', () => {
  const line = { id: 'x', text: 't', aspects: [pos('cleanup'), neg('cleanup')] };
  expect(LabelledSentenceSchema.safeParse(line).success).toBe(false);
  expect(LabelledSentenceSchema.safeParse({ ...line, aspects: [pos('cleanup')] }).success).toBe(
    true,
  );
});

test('the selection rule keeps settings near the best F1 and takes the most no-aspect accuracy', () => {
  const candidate = (name: string, aspect: number, joint: number, noAspect: number) => ({
    name,
    report: {
      ...scoreAbsa([]),
      aspect_detection: { ...scoreAbsa([]).aspect_detection, f1: aspect },
      joint: { ...scoreAbsa([]).joint, f1: joint },
      no_aspect_accuracy: noAspect,
    },
  });
  const best = candidate('best F1', 0.81, 0.7, 0.85);
  const near = candidate('within half a point', 0.806, 0.695, 0.9);
  const far = candidate('a point below', 0.8, 0.69, 0.99);
  expect(pickSetting([best, near, far]).name).toBe('within half a point');
  // Equal no-aspect accuracy: the higher joint F1.
  expect(pickSetting([candidate('a', 0.81, 0.696, 0.9), candidate('b', 0.81, 0.7, 0.9)]).name).toBe(
    'b',
  );
  expect(() => pickSetting([])).toThrow('no candidates');
});
