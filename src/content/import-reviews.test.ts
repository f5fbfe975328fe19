import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import matter from 'gray-matter';
import { readReviews } from './read-content.ts';
import { renderReviewFile, type ReviewFileFields } from './review-file.ts';
import { makeBusiness } from '../../test/support/builders.ts';
import {
  planImport,
  proposeTechnicians,
  readCsv,
  readGbp,
  type ExistingReview,
  type ImportProblem,
  type ImportedReview,
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

/** The plan's files written to a folder and read back as the build (and the import) reads them. */
async function writtenAndReadBack(
  writes: readonly { id: string; content: string }[],
  existing: readonly ExistingReview[] = [],
): Promise<ExistingReview[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'import-'));
  for (const review of existing)
    await writeFile(
      path.join(dir, `${review.id}.md`),
      renderReviewFile(review.fields, review.text),
    );
  for (const write of writes) await writeFile(path.join(dir, `${write.id}.md`), write.content);
  const { reviews } = await readReviews(dir);
  await rm(dir, { recursive: true });
  return reviews.map(({ id, source }) => {
    if (source.kind !== 'parsed') throw new Error(`${id}: ${source.kind}`);
    return { id, fields: source.data as ReviewFileFields, text: source.text };
  });
}

function readRows(source: string): ImportedReview[] {
  const problems: ImportProblem[] = [];
  const imported = readCsv('x.csv', source, business, 'manual_check', problems);
  expect(problems).toEqual([]);
  return imported;
}

describe('readCsv of what spreadsheets write', () => {
  test('semicolons or tabs separate the columns when the header has no comma', () => {
    expect(csv('date;rating;author;text\n2024-01-01;5;Al;Good roof, fast.\n')).toEqual({
      problems: [],
      count: 1,
    });
    expect(csv('date\trating\tauthor\ttext\n2024-01-01\t5\tAl\tGood roof.\n').count).toBe(1);
  });

  test('rows of empty cells and blank lines are no records; a short row is a problem naming it', () => {
    expect(csv('date,rating,author,text\n2024-01-01,5,Al,Good\n,,,\n   \n,,,\n')).toEqual({
      problems: [],
      count: 1,
    });
    const short = csv('date,rating,author,text\n2024-01-01,5,Al,Good\n2024-01-02,4,Bo\n');
    expect(short.problems).toEqual([
      expect.objectContaining({
        record: 'record 2',
        message: 'has 3 cells where the header names 4 (line 3)',
      }),
    ]);
  });

  test('a file without a header row, or with one and no records, is a problem', () => {
    const headless = csv('2024-05-01,5,Ann,Great roof\n');
    expect(headless.problems).toEqual([
      expect.objectContaining({
        record: 'header',
        message: expect.stringContaining('the file needs a header row naming its columns'),
      }),
    ]);
    expect(csv('date,rating,author,text\n').problems).toEqual([
      expect.objectContaining({ message: 'has a header but no records: nothing to import' }),
    ]);
  });
});

describe('planImport against the files already there', () => {
  const karen = {
    id: '2019-03-22-leak-repair-karen-m',
    fields: {
      rating: 4,
      date: '2019-03-22',
      author: 'Karen M.',
      source: 'google',
      language: 'de',
      verification: 'platform_verified',
      technicians: ['cat-ruiz'],
      reply: { date: '2019-03-25', text: 'Thank you, Karen!' },
    },
    text: 'The leak over the garage is fixed.',
  } satisfies ExistingReview;

  test('a CSV without a reply or source column leaves the reply, platform and language as they are', () => {
    const imported = readRows(
      'date,rating,author,text\n2019-03-22,4,Karen M.,The leak over the garage is fixed.\n',
    );
    const plan = planImport(imported, [karen], business);
    expect(plan.writes).toEqual([]);
    expect(plan.unchanged).toEqual([{ id: karen.id, from: 'x.csv › record 1' }]);
  });

  test('an edit keeps the reply the export has no column for; an empty reply cell removes it', async () => {
    const edited = readRows(
      'date,rating,author,text,source\n2019-03-22,2,Karen M.,The leak over the garage is fixed.,google\n',
    );
    const plan = planImport(edited, [karen], business);
    expect(plan.writes.map((write) => write.kind)).toEqual(['updated']);
    const [after] = await writtenAndReadBack(plan.writes);
    expect(after!.fields).toMatchObject({
      rating: 2,
      language: 'de',
      source: 'google',
      technicians: ['cat-ruiz'],
      reply: karen.fields.reply,
    });
    const noReply = readRows(
      'date,rating,author,text,source,reply\n2019-03-22,4,Karen M.,The leak over the garage is fixed.,google,\n',
    );
    const removed = planImport(noReply, [karen], business);
    expect(removed.writes).toHaveLength(1);
    expect(matter(removed.writes[0]!.content).data.reply).toBeUndefined();
  });

  test('the same review from another platform is not written again: the build would refuse both', () => {
    const yelp = readRows(
      'date,rating,author,text,source\n2019-03-22,4,Karen M.,The leak over the garage is fixed.,yelp\n',
    );
    const plan = planImport(yelp, [karen], business);
    expect(plan.writes).toEqual([]);
    expect(plan.skipped).toEqual([
      {
        from: 'x.csv › record 1',
        reason: `the same review as ${karen.id}.md, which is its google copy (published once)`,
      },
    ]);
  });

  test('a text with control characters or a lone carriage return is unchanged when imported again', async () => {
    const source =
      'date,rating,author,text\n2024-06-02,5,Bob B,"bell\x07 char and\rvertical\x0btab"\n';
    const first = planImport(readRows(source), [], business);
    expect(first.writes).toHaveLength(1);
    const existing = await writtenAndReadBack(first.writes);
    const again = planImport(readRows(source), existing, business);
    expect(again.writes).toEqual([]);
    expect(again.unchanged).toHaveLength(1);
  });

  test('the same in a Google export: escapes of control characters do not make a new review', async () => {
    const page = JSON.stringify({
      reviews: [
        {
          reviewId: 'g-9',
          reviewer: { displayName: 'Bob B' },
          starRating: 'FIVE',
          comment: 'bell\u0007 char\r\nand more',
          createTime: '2024-06-02T15:00:00Z',
        },
      ],
    });
    const read = () => {
      const problems: ImportProblem[] = [];
      const reviews = readGbp('g.json', page, business, 'platform_verified', problems);
      expect(problems).toEqual([]);
      return reviews;
    };
    const first = planImport(read(), [], business);
    const existing = await writtenAndReadBack(first.writes);
    expect(planImport(read(), existing, business).unchanged).toHaveLength(1);
  });

  test('a text over the limit is refused before anything is written, as the build would', () => {
    const long = 'word '.repeat(5000).trim();
    expect(() =>
      planImport(readRows(`date,rating,author,text\n2024-07-02,5,Al,${long}\n`), [], business),
    ).toThrow(/record 1 › text: is 24,999 characters; a review's text may be at most 20,000/);
  });

  test('a text of invisible characters alone is a star-only rating: skipped', () => {
    const plan = planImport(
      readRows('date,rating,author,text\n2024-07-02,5,Al,\u200b\n'),
      [],
      business,
    );
    expect(plan.writes).toEqual([]);
    expect(plan.skipped).toEqual([
      { from: 'x.csv › record 1', reason: 'no text (a star-only rating)' },
    ]);
  });
});

test('a Google page with a nextPageToken says the export has more pages', () => {
  const problems: ImportProblem[] = [];
  const notices: string[] = [];
  const page = JSON.stringify({ reviews: [], nextPageToken: 'abc', totalReviewCount: 120 });
  readGbp('page1.json', page, business, 'platform_verified', problems, notices);
  expect(problems).toEqual([]);
  expect(notices).toEqual([
    'page1.json is one page of the export (it has a nextPageToken): import the other pages too, or some reviews are missing',
  ]);
  readGbp(
    'last.json',
    JSON.stringify({ reviews: [] }),
    business,
    'platform_verified',
    problems,
    notices,
  );
  expect(notices).toHaveLength(1);
});
