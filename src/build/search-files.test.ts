import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { makeBusiness, makeReview } from '../../test/support/builders.ts';
import { buildSearchData } from '../core/search-data.ts';
import { readSearchFiles, writeSearchFiles } from './search-files.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the search files read back as written, and files of another version are refused', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'search-files-'));
  const reviews = [makeReview({ id: 'a', text: 'Dach in der Hauptstraße.' })];
  const data = buildSearchData(makeBusiness(), reviews);
  await writeSearchFiles(dir, data);
  const read = await readSearchFiles(dir);
  expect(read.columns).toEqual(data.columns);
  expect(read.folded.equals(data.folded)).toBe(true);
  expect(read.folded.toString('utf8')).toContain('hauptstrasse');
  // Files from before a title and its text were separated (version 5) would match across them.
  const file = path.join(dir, 'search/columns.json');
  const columns = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...columns, version: 5 }));
  await expect(readSearchFiles(dir)).rejects.toThrow(
    /search data version 5 is not 6; rebuild with `npm run build`/,
  );
});
