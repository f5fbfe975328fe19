import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { createAspectAnalyzer, PIPELINE_STEPS } from '../aspects.ts';
import { bootstrapIntervals, scoreAbsa } from '../absa-metrics.ts';
import { parseCorpusFile, type CorpusSentence } from '../corpus.ts';
import { loadLexicon } from '../../../content/load-lexicon.ts';
import {
  DEFAULT_HYPERPARAMETERS,
  parseAspectModel,
  predictAspects,
  serializeAspectModel,
  trainAspectModel,
} from './aspect-model.ts';
import { defaultAspectModel } from './default-model.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

async function corpus(): Promise<CorpusSentence[]> {
  const dir = path.join(root, 'training/aspects/corpus');
  const sentences: CorpusSentence[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
    sentences.push(...parseCorpusFile(name, await readFile(path.join(dir, name), 'utf8')));
  return sentences;
}

test('training is deterministic for a seed, and the seed matters', async () => {
  const sample = (await corpus()).slice(0, 400);
  const first = serializeAspectModel(trainAspectModel(sample));
  expect(serializeAspectModel(trainAspectModel(sample))).toBe(first);
  const other = serializeAspectModel(
    trainAspectModel(sample, { ...DEFAULT_HYPERPARAMETERS, seed: 1 }),
  );
  expect(other).not.toBe(first);
});

test('the shipped weights are exactly what npm run train:aspects makes from the corpus', async () => {
  const shipped = await readFile(
    path.join(root, 'src/core/insights/model/aspect-model.json'),
    'utf8',
  );
  expect(serializeAspectModel(trainAspectModel(await corpus()))).toBe(shipped);
}, 180_000);

test('a serialized model predicts what it predicted before', () => {
  const model = defaultAspectModel();
  const again = parseAspectModel(serializeAspectModel(model));
  for (const text of ['Great roof but the office never called back.', 'Not a single nail left.'])
    expect(predictAspects(again, text)).toEqual(predictAspects(model, text));
});

test('each stance comes from its own clause, and every pipeline step reports', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const analyzer = createAspectAnalyzer(lexicon, { model: defaultAspectModel() });
  const trace = analyzer.explainSentence('Great roof but the office never called back.');
  expect(trace.aspects).toEqual([
    { aspect: 'workmanship', polarity: 'positive' },
    { aspect: 'communication', polarity: 'negative' },
  ]);
  const steps = new Set(trace.steps!.map((s) => s.step));
  for (const step of Object.keys(PIPELINE_STEPS))
    if (step !== 'tie-break') expect(steps, step).toContain(step);
  expect(trace.steps!.find((s) => s.step === 'contrast/negation')!.result).toContain(
    'clause "great roof"',
  );
});

test('without a model the analyzer is the lexicon alone', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  expect(createAspectAnalyzer(lexicon).explainSentence('Great roof.').steps).toBeUndefined();
});

test('bootstrap intervals are repeatable and hold the point estimate', () => {
  const items = Array.from({ length: 60 }, (_, i) => ({
    gold: i % 3 === 0 ? [] : [{ aspect: 'cleanup' as const, polarity: 'positive' as const }],
    predicted:
      i % 5 === 0
        ? []
        : [
            {
              aspect: 'cleanup' as const,
              polarity: i % 7 === 0 ? ('negative' as const) : ('positive' as const),
            },
          ],
  }));
  const a = bootstrapIntervals(items, 200, 3);
  expect(bootstrapIntervals(items, 200, 3)).toEqual(a);
  const point = scoreAbsa(items);
  expect(a.joint_f1.low).toBeLessThanOrEqual(point.joint.f1);
  expect(a.joint_f1.high).toBeGreaterThanOrEqual(point.joint.f1);
  expect(a.aspect_f1.low).toBeLessThan(a.aspect_f1.high);
});
