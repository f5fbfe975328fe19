import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createAspectAnalyzer } from '../core/insights/aspects.ts';
import { EMPTY_LEXICON } from '../core/insights/lexicon.ts';
import { loadLexicon } from './load-lexicon.ts';

const CONTENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content');

async function contentWith(lexicon: string | null): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lexicon-'));
  await mkdir(path.join(dir, 'insights'));
  if (lexicon !== null) await writeFile(path.join(dir, 'insights', 'lexicon.json'), lexicon);
  return dir;
}

test('a content folder without a lexicon gets the empty one', async () => {
  const { lexicon, problems } = await loadLexicon(await contentWith(null));
  expect(problems).toEqual([]);
  expect(lexicon).toEqual(EMPTY_LEXICON);
});

test('a lexicon that is not JSON is one problem naming the file', async () => {
  const { problems } = await loadLexicon(await contentWith('{ "version": 1, '));
  expect(problems).toHaveLength(1);
  expect(problems[0]!.file).toMatch(/insights[/\\]lexicon\.json$/);
  expect(problems[0]!.message).toContain('not valid JSON');
});

test('a bad phrase, an unknown key and an unknown aspect name their fields', async () => {
  const bad = JSON.parse(JSON.stringify(EMPTY_LEXICON));
  bad.aspects.cleanup.positive = ['spotless', 'Spotless Yard'];
  bad.aspects.warranty.cuez = ['x'];
  bad.redirects = [{ from: 'professionalism', to: 'office', when: ['office'] }];
  const { problems } = await loadLexicon(await contentWith(JSON.stringify(bad)));
  const fields = problems.map((p) => p.field);
  expect(fields).toContain('aspects.cleanup.positive.1');
  expect(fields).toContain('aspects.warranty.cuez');
  expect(fields).toContain('redirects.0.to');
  expect(problems.find((p) => p.field === 'aspects.cleanup.positive.1')!.message).toContain(
    '"Spotless Yard"',
  );
});

test('an unknown lexicon key names the key it most likely meant', async () => {
  const bad = JSON.parse(JSON.stringify(EMPTY_LEXICON));
  bad.aspects.warranty.cuez = ['x'];
  bad.negatorz = [];
  const { problems } = await loadLexicon(await contentWith(JSON.stringify(bad)));
  expect(problems.map(({ field, message }) => ({ field, message }))).toEqual([
    { field: 'aspects.warranty.cuez', message: 'unknown key "cuez"; did you mean "cues"?' },
    { field: 'negatorz', message: 'unknown key "negatorz"; did you mean "negators"?' },
  ]);
});

describe('the shipped lexicon', () => {
  test('loads without problems', async () => {
    expect((await loadLexicon(CONTENT)).problems).toEqual([]);
  });

  // The examples of the Insights issue, on the lexicon the build uses.
  test.each([
    ['Not a single nail left in the yard.', { cleanup: 'positive' }],
    [
      'Great roof but the office never called back.',
      { workmanship: 'positive', communication: 'negative' },
    ],
    ['There were nails in the driveway for weeks.', { cleanup: 'negative' }],
    ['Highly recommend!', {}],
  ])('%j', async (text, expected) => {
    const analyzer = createAspectAnalyzer((await loadLexicon(CONTENT)).lexicon);
    const found = Object.fromEntries(
      analyzer.analyzeSentence(text).map((o) => [o.aspect, o.polarity]),
    );
    expect(found).toEqual(expected);
  });
});
