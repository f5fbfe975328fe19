import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadLexicon } from '../../../content/load-lexicon.ts';
import { LabelledSentenceSchema } from '../absa-metrics.ts';
import { parseJsonLines } from '../corpus.ts';
import { decide, heldOutOf, scoreSettings, withChosenSettings } from './decision-settings.ts';
import { defaultAspectModel } from './default-model.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

async function own() {
  const file = path.join(root, 'test/fixtures/absa-own.jsonl');
  return parseJsonLines(file, await readFile(file, 'utf8'), LabelledSentenceSchema);
}

test('settings decided from the raw scores give what the pipeline gives at those settings', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const model = defaultAspectModel();
  const sentences = (await own()).slice(0, 120);
  for (const setting of [
    model,
    { ...model, gate: 0, lexiconFloor: 0.05 },
    { ...model, convWeight: 0.3, threshold: 0.8, clauseThreshold: 2, gate: 0.9 },
  ]) {
    const items = heldOutOf(setting, lexicon, sentences);
    items.forEach((item) => expect(decide(item, setting)).toEqual(item.pipeline));
  }
});

test('the chosen settings are the best of the grid by the selection rule', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const sentences = (await own()).slice(0, 120);
  const { model, scored, picked } = withChosenSettings(defaultAspectModel(), lexicon, sentences);
  expect(scored.length).toBe(4 * 6 * 5 * 4 * 8);
  expect(model.gate).toBe(picked.setting.gate);
  expect(model.clauseThreshold).toBe(picked.setting.clauseThreshold);
  const best = Math.max(...scored.map(({ report }) => report.joint.f1));
  expect(picked.report.joint.f1).toBeGreaterThanOrEqual(best - 0.005);
  // A model without a convolutional detector is not given a share of one.
  const items = heldOutOf({ ...defaultAspectModel(), conv: null }, lexicon, sentences.slice(0, 5));
  expect(new Set(scoreSettings(items, false).map(({ setting }) => setting.convWeight))).toEqual(
    new Set([0]),
  );
});
