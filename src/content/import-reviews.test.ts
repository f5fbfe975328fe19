import { describe, expect, test } from 'vitest';
import matter from 'gray-matter';
import { makeBusiness } from '../../test/support/builders.ts';
import {
  planImport,
  proposeTechnicians,
  readCsv,
  readGbp,
  type ExistingReview,
  type ImportProblem,
} from './import-reviews.ts';

const business = makeBusiness({
  technicians: [
    { id: 'cat-ruiz', name: 'Cat Ruiz' },
    { id: 'will-park', name: 'Will Park', aliases: ['Billy'] },
    { id: 'ana-lima', name: 'Ana Lima' },
  ],
});

describe('proposeTechnicians', () => {
  test('a one-word name matches only capitalized; a full name in any case or accent', () => {
    expect(proposeTechnicians('The cat sat on the roof and we will call again.', business)).toEqual(
      [],
    );
    expect(proposeTechnicians('Cat was great, and Billy helped.', business)).toEqual([
      'cat-ruiz',
      'will-park',
    ]);
    expect(proposeTechnicians('thanks to ána lima!', business)).toEqual(['ana-lima']);
  });
});

function csv(source: string): { problems: ImportProblem[]; count: number } {
  const problems: ImportProblem[] = [];
  const reviews = readCsv('x.csv', source, business, 'manual_check', problems);
  return { problems, count: reviews.length };
}

describe('readCsv', () => {
  test('an empty file is a problem, not an import of nothing', () => {
    expect(csv('').problems).toEqual([
      expect.objectContaining({
        record: 'header',
        message: expect.stringMatching(/^the file is empty/),
      }),
    ]);
  });

  test('a column named twice is a problem naming it', () => {
    const { problems, count } = csv(
      'date,date,rating,author,text\n2024-01-01,2024-02-02,5,Al,Good\n',
    );
    expect(count).toBe(0);
    expect(problems).toEqual([expect.objectContaining({ record: 'header', field: 'date' })]);
  });
});

describe('planImport without platform ids', () => {
  const rows = 'date,rating,author,text\n2024-01-01,5,Al,Good roof.\n2024-01-01,5,Al,Good roof.\n';

  test('the same row twice is one review; imported again it is unchanged', () => {
    const problems: ImportProblem[] = [];
    const imported = readCsv('x.csv', rows, business, 'manual_check', problems);
    expect(problems).toEqual([]);
    const first = planImport(imported, [], business);
    expect(first.writes).toHaveLength(1);
    expect(first.skipped).toEqual([
      { from: 'x.csv › record 2', reason: 'the same review as x.csv › record 1' },
    ]);
    const written = first.writes[0]!;
    const parsed = matter(written.content);
    const existing: ExistingReview[] = [
      { id: written.id, fields: parsed.data, text: parsed.content.trim() },
    ];
    const again = planImport(imported, existing, business);
    expect(again.writes).toEqual([]);
    expect(again.unchanged).toEqual([{ id: written.id, from: 'x.csv › record 1' }]);
  });
});

describe('planImport of a review listed twice', () => {
  test('the copy updated last is imported, wherever it stands in the export', () => {
    const problems: ImportProblem[] = [];
    const copy = (comment: string, updateTime: string) => ({
      reviewId: 'g-1',
      reviewer: { displayName: 'Al Gore' },
      starRating: 'FOUR',
      comment,
      createTime: '2024-01-10T15:00:00Z',
      updateTime,
    });
    const imported = readGbp(
      'export.json',
      JSON.stringify({
        reviews: [
          copy('Edited: the leak came back and they fixed it free.', '2024-05-01T12:00:00Z'),
          copy('Good roof.', '2024-01-10T15:00:00Z'),
          copy('Edited once.', '2024-03-01T12:00:00Z'),
        ],
      }),
      business,
      'platform_verified',
      problems,
    );
    expect(problems).toEqual([]);
    const plan = planImport([...imported].reverse(), [], business);
    expect(plan.writes).toHaveLength(1);
    expect(matter(plan.writes[0]!.content).content.trim()).toBe(
      'Edited: the leak came back and they fixed it free.',
    );
    const newest = 'export.json › reviews[0] (reviewId g-1)';
    expect(plan.skipped).toEqual([
      {
        from: 'export.json › reviews[2] (reviewId g-1)',
        reason: `an older copy of ${newest}, which is imported`,
      },
      {
        from: 'export.json › reviews[1] (reviewId g-1)',
        reason: `an older copy of ${newest}, which is imported`,
      },
    ]);
  });
});
