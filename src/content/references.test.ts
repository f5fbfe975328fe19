import { expect, test } from 'vitest';
import { businessIds, createReviewIdCheck, referenceProblems } from './references.ts';
import { makeBusiness } from '../../test/support/builders.ts';

const IDS = businessIds(
  makeBusiness({
    technicians: [
      { id: 'ana-lopez', name: 'Ana López' },
      { id: 'sam-lee', name: 'Sam Lee' },
    ],
  }),
);

test('a review id is a kebab-case file name', () => {
  const check = createReviewIdCheck();
  expect(check('good-id-2', 'a.md')).toBeUndefined();
  expect(check('Bad_Id', 'b.md')).toMatch(/must be a kebab-case id.*"Bad_Id" is not/);
});

test('the second review with an id is the duplicate, naming the first file', () => {
  const check = createReviewIdCheck();
  expect(check('same', 'reviews/2024/same.md')).toBeUndefined();
  expect(check('same', 'reviews/2025/same.md')).toBe(
    'duplicate review id "same" (also reviews/2024/same.md)',
  );
});

test('technician ids map to the names a published review shows', () => {
  expect([...IDS.technicianNames]).toEqual([
    ['ana-lopez', 'Ana López'],
    ['sam-lee', 'Sam Lee'],
  ]);
});

test('references to what business.json defines are no problem', () => {
  const frontMatter = { technicians: ['sam-lee'], services: ['gutters'], service_area: 'denver' };
  expect(referenceProblems(frontMatter, IDS)).toEqual([]);
});

test('each unknown id is reported at its index with the known ids', () => {
  const frontMatter = {
    technicians: ['sam-lee', 'bob-smith'],
    services: ['chimney'],
    service_area: 'boulder',
  };
  expect(referenceProblems(frontMatter, IDS)).toEqual([
    {
      field: 'technicians.1',
      message: 'unknown technician id "bob-smith"; known ids: ana-lopez, sam-lee',
    },
    {
      field: 'services.0',
      message: 'unknown service id "chimney"; known ids: roof-repair, gutters',
    },
    { field: 'service_area', message: 'unknown service area id "boulder"; known ids: denver' },
  ]);
});

test('an id a typo away from a known one says which was meant', () => {
  const frontMatter = { technicians: ['sam-le'], services: ['gutter'], service_area: 'denvre' };
  expect(referenceProblems(frontMatter, IDS).map((problem) => problem.message)).toEqual([
    'unknown technician id "sam-le" (did you mean "sam-lee"?); known ids: ana-lopez, sam-lee',
    'unknown service id "gutter" (did you mean "gutters"?); known ids: roof-repair, gutters',
    'unknown service area id "denvre" (did you mean "denver"?); known ids: denver',
  ]);
});

test('malformed ids and lists are left to the schema', () => {
  const frontMatter = { technicians: ['Not An Id', 7], services: 'gutters', service_area: 3 };
  expect(referenceProblems(frontMatter, IDS)).toEqual([]);
  expect(referenceProblems(['a', 'list'], IDS)).toEqual([]);
  expect(referenceProblems(null, IDS)).toEqual([]);
});
