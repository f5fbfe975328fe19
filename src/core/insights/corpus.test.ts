import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { ASPECT_IDS } from './lexicon.ts';
import { POLARITIES } from './lexicon.ts';
import {
  AspectOpinionSchema,
  LabelledSentenceSchema,
  type LabelledSentence,
} from './absa-metrics.ts';
import { parseCorpusFile, parseJsonLines, renderCoverage, type CorpusSentence } from './corpus.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = path.join(root, 'training/aspects/corpus');

/** A sentence as the rule that no sentence appears twice compares it: any case, any spacing. */
const key = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

async function corpus(): Promise<CorpusSentence[]> {
  const sentences: CorpusSentence[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
    sentences.push(...parseCorpusFile(name, await readFile(path.join(dir, name), 'utf8')));
  return sentences;
}

test('the training corpus is valid, large, has no sentence twice, and covers every aspect with every polarity', async () => {
  const sentences = await corpus();
  expect(sentences.length).toBeGreaterThanOrEqual(3000);
  expect(new Set(sentences.map((s) => s.id)).size).toBe(sentences.length);
  // A sentence written twice would sit in both the training and the held-out folds of --cv.
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  for (const { id, text } of sentences) {
    const first = seen.get(key(text));
    if (first) repeated.push(`${id} repeats ${first}`);
    else seen.set(key(text), id);
  }
  expect(repeated).toEqual([]);
  for (const aspect of ASPECT_IDS)
    for (const polarity of POLARITIES)
      expect(
        sentences.filter((s) =>
          s.aspects.some((a) => a.aspect === aspect && a.polarity === polarity),
        ).length,
        `${aspect} ${polarity}`,
      ).toBeGreaterThanOrEqual(8);
});

test('the second, blind labels of disputed corpus sentences name corpus sentences, once each, with valid labels', async () => {
  const file = 'training/aspects/second-labels.jsonl';
  const second = parseJsonLines(
    file,
    await readFile(path.join(root, file), 'utf8'),
    z.object({ id: z.string(), aspects: z.array(AspectOpinionSchema) }).strict(),
  );
  const ids = new Set((await corpus()).map((s) => s.id));
  expect(second.length).toBeGreaterThan(1000);
  expect(second.filter(({ id }) => !ids.has(id))).toEqual([]);
  expect(new Set(second.map((s) => s.id)).size).toBe(second.length);
  for (const { id, aspects } of second)
    expect(new Set(aspects.map((a) => a.aspect)).size, id).toBe(aspects.length);
});

test('COVERAGE.md is the table of the corpus as it is', async () => {
  const written = await readFile(path.join(root, 'training/aspects/COVERAGE.md'), 'utf8');
  expect(written).toBe(renderCoverage(await corpus()));
});

test('a bad corpus line is an error naming the file, line and field', () => {
  expect(() =>
    parseCorpusFile(
      'x.jsonl',
      '{"id":"a","text":"t","aspects":[{"aspect":"roof","polarity":"positive"}],"tags":[]}\n',
    ),
  ).toThrow(/^x\.jsonl:1: aspects\.0\.aspect: /);
});

/** The labelled sentences of the JSON-lines files in `folder` whose names pass `names`. */
async function labelled(
  folder: string,
  names: (n: string) => boolean,
): Promise<LabelledSentence[]> {
  const sentences: LabelledSentence[] = [];
  for (const name of (await readdir(path.join(root, folder))).filter(names).sort())
    sentences.push(
      ...parseJsonLines(
        name,
        await readFile(path.join(root, folder, name), 'utf8'),
        LabelledSentenceSchema,
      ),
    );
  return sentences;
}
const testSets = () =>
  labelled('test/fixtures', (n) => n.startsWith('absa-') && n.endsWith('.jsonl'));
const validationSet = () => labelled('training/aspects/validation', (n) => n.endsWith('.jsonl'));

test('the validation set the decision settings are chosen on shares no sentence with the corpus or the test sets', async () => {
  const validation = await validationSet();
  expect(validation.length).toBeGreaterThanOrEqual(1500);
  expect(new Set(validation.map((s) => s.id)).size).toBe(validation.length);
  const elsewhere = new Set([...(await corpus()), ...(await testSets())].map((s) => key(s.text)));
  // Stock lines of four words or fewer ("Highly recommend!") any writer may use.
  const shared = validation.filter(
    (s) => s.text.split(/\s+/).length > 4 && elsewhere.has(key(s.text)),
  );
  expect(shared.map((s) => s.id)).toEqual([]);
});

test('the sets written but not trained on are valid corpus lines that share no sentence with the corpus, the validation set or the test sets', async () => {
  const folder = path.join(root, 'training/aspects/not-trained');
  const sentences: CorpusSentence[] = [];
  for (const name of (await readdir(folder)).filter((n) => n.endsWith('.jsonl')).sort())
    sentences.push(...parseCorpusFile(name, await readFile(path.join(folder, name), 'utf8')));
  expect(sentences.length).toBeGreaterThanOrEqual(1000);
  const elsewhere = new Set(
    [...(await corpus()), ...(await validationSet()), ...(await testSets())].map((s) =>
      key(s.text),
    ),
  );
  const ids = new Set<string>();
  const repeated: string[] = [];
  for (const { id, text } of sentences) {
    if (ids.has(id) || elsewhere.has(key(text))) repeated.push(id);
    ids.add(id);
    elsewhere.add(key(text));
  }
  // Moved into the corpus, they must not break its rule that no sentence appears twice.
  expect(repeated).toEqual([]);
});
