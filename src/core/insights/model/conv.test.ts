import { expect, test } from 'vitest';
import {
  convFrom,
  convProbabilities,
  convProjections,
  convScores,
  convSpanScores,
  rowsOf,
  serializeConv,
  trainConv,
} from './conv.ts';
import { defaultWordVectors } from './default-model.ts';
import { seededRandom } from './logistic.ts';

const vectors = defaultWordVectors();
const FILLERS = ['the', 'house', 'was', 'on', 'a', 'street', 'with', 'old', 'trees', 'today'];

/** Sentences of fillers with `words` inserted at a seeded position. */
function sentences(count: number, words: string[], seed: number): string[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const out = Array.from({ length: 6 }, () => FILLERS[Math.floor(random() * FILLERS.length)]!);
    out.splice(Math.floor(random() * out.length), 0, ...words);
    return out;
  });
}

const options = {
  filters: 8,
  classes: 2,
  epochs: 20,
  learningRate: 0.01,
  batch: 4,
  dropout: 0,
  seed: 7,
};

test('the detector reads word order: "roof leaked" is not "leaked roof"', () => {
  // Class 0 is "roof" directly before "leaked"; the same two words the other way round are not.
  const examples = [
    ...sentences(60, ['roof', 'leaked'], 1).map((words) => ({ words, label: 1 })),
    ...sentences(60, ['leaked', 'roof'], 2).map((words) => ({ words, label: 0 })),
  ].map(({ words, label }) => ({ rows: rowsOf(vectors, words), label }));
  const detector = trainConv(examples, vectors, options);
  const probability = (text: string) =>
    convProbabilities(detector, vectors, rowsOf(vectors, text.split(' ')))[0]!;
  // Sentences it never saw: other fillers around the pair.
  expect(probability('my neighbor said the roof leaked again')).toBeGreaterThan(0.8);
  expect(probability('my neighbor said leaked roof again')).toBeLessThan(0.2);
});

test('a word the detector never saw scores like its pretrained neighbours', () => {
  // Trained on "rude" and "polite" only; "obnoxious" and "courteous" appear in no example.
  const examples = [
    ...sentences(40, ['rude'], 3).map((words) => ({ words, label: 1 })),
    ...sentences(40, ['polite'], 4).map((words) => ({ words, label: 2 })),
  ].map(({ words, label }) => ({ rows: rowsOf(vectors, words), label }));
  const detector = trainConv(examples, vectors, options);
  const probabilities = (text: string) =>
    convProbabilities(detector, vectors, rowsOf(vectors, text.split(' '))) as [number, number];
  const [rude, polite] = probabilities('the crew was very obnoxious');
  expect(rude).toBeGreaterThan(polite);
  const [rude2, polite2] = probabilities('the crew was very courteous');
  expect(polite2).toBeGreaterThan(rude2);
});

test('training is deterministic for a seed; the shipped form reads back to the same scores', () => {
  const examples = sentences(30, ['gutter'], 5).map((words, i) => ({
    rows: rowsOf(vectors, words),
    label: i % 3,
  }));
  const first = serializeConv(trainConv(examples, vectors, options));
  expect(serializeConv(trainConv(examples, vectors, options))).toEqual(first);
  expect(serializeConv(trainConv(examples, vectors, { ...options, seed: 8 }))).not.toEqual(first);
  const detector = convFrom(first, 2);
  expect(serializeConv(detector)).toEqual(first);
  const rows = rowsOf(vectors, ['the', 'gutter', 'was', 'loose']);
  expect(convProbabilities(detector, vectors, rows)).toEqual(
    convProbabilities(convFrom(first, 2), vectors, rows),
  );
  // Nothing to read: the biases alone, still probabilities.
  for (const p of convProbabilities(detector, vectors, [])) expect(p).toBeGreaterThan(0);
  expect(() => convFrom({ ...first, bias: [1] }, 2)).toThrow(/bias needs 8 numbers, found 1/);
});

test("a span of a sentence's projections scores as its words would alone", () => {
  const examples = sentences(30, ['gutter'], 5).map((words, i) => ({
    rows: rowsOf(vectors, words),
    label: i % 3,
  }));
  const detector = trainConv(examples, vectors, options);
  const rows = rowsOf(vectors, 'the gutter was loose but the crew fixed it today'.split(' '));
  const projected = convProjections(detector, vectors, rows);
  expect(convSpanScores(detector, projected)).toEqual(convScores(detector, vectors, rows));
  // A clause in the middle: nothing of its neighbours leaks in at either end.
  expect(convSpanScores(detector, projected, 3, 7)).toEqual(
    convScores(detector, vectors, rows.slice(3, 7)),
  );
  // Words 2 and 7 ("was", "the") have vectors, so the wider span reads more.
  expect(rows).toHaveLength(10);
  expect(convSpanScores(detector, projected, 3, 7)).not.toEqual(
    convSpanScores(detector, projected, 2, 8),
  );
});

test('scores are the pooled filter responses read by the output layer, as written out by hand', () => {
  const examples = sentences(30, ['skylight', 'leaked'], 9).map((words, i) => ({
    rows: rowsOf(vectors, words),
    label: i % 4,
  }));
  const detector = trainConv(examples, vectors, options);
  const { filters, classes, kernel, bias, output, outputBias } = detector;
  /** Filter f's response at position t of `rows`, its neighbours outside the span being zeros. */
  const response = (rows: Int32Array, t: number, f: number) => {
    let sum = bias[f]!;
    for (let k = 0; k < 3; k++) {
      const row = rows[t + k - 1];
      if (row === undefined) continue;
      for (let d = 0; d < 100; d++)
        sum += kernel[(f * 3 + k) * 100 + d]! * vectors.data[row * 100 + d]! * (10 / 127);
    }
    return sum;
  };
  let zeros = 0;
  for (const text of ['skylight leaked', 'the skylight on the old house leaked today', 'house']) {
    const rows = rowsOf(vectors, text.split(' '));
    const pooled = Array.from({ length: filters }, (_, f) =>
      Math.max(0, ...Array.from(rows, (_, t) => response(rows, t, f))),
    );
    zeros += pooled.filter((p) => p === 0).length;
    const expected = Array.from({ length: classes }, (_, c) =>
      pooled.reduce((sum, p, f) => sum + output[c * filters + f]! * p, outputBias[c]!),
    );
    const actual = convScores(detector, vectors, rows);
    // The projections are stored as 32-bit floats.
    actual.forEach((score, c) => expect(score).toBeCloseTo(expected[c]!, 4));
  }
  // Some filters pooled to 0 (no response above it), as most do on real sentences.
  expect(zeros).toBeGreaterThan(0);
});

test('word dropout teaches a word that only sometimes comes with the label, and is deterministic', () => {
  // Every positive has "leaked", half of them "dripping" too; negatives have neither.
  const examples = [
    ...sentences(40, ['leaked'], 9).map((words) => ({ words, label: 1 })),
    ...sentences(40, ['leaked', 'and', 'dripping'], 10).map((words) => ({ words, label: 1 })),
    ...sentences(80, [], 11).map((words) => ({ words, label: 0 })),
  ].map(({ words, label }) => ({ rows: rowsOf(vectors, words), label }));
  const probability = (detector: ReturnType<typeof trainConv>) =>
    convProbabilities(
      detector,
      vectors,
      rowsOf(vectors, 'the old gutter was dripping'.split(' ')),
    )[0]!;
  const plain = trainConv(examples, vectors, options);
  const dropped = trainConv(examples, vectors, { ...options, wordDropout: 0.3 });
  // Without it the filters need "leaked"; with it, "dripping" alone is evidence.
  expect(probability(plain)).toBeLessThan(0.5);
  expect(probability(dropped)).toBeGreaterThan(0.5);
  expect(serializeConv(trainConv(examples, vectors, { ...options, wordDropout: 0.3 }))).toEqual(
    serializeConv(dropped),
  );
  expect(serializeConv(trainConv(examples, vectors, { ...options, wordDropout: 0 }))).toEqual(
    serializeConv(plain),
  );
}, 30_000);
