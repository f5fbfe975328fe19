// Unit tests for loadContent: every content rule (docs/decisions.md#content) fails with file, field and what is
// expected, and the published records follow §4. Each case writes its own content into a temp dir.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterEach, describe, expect, test } from 'vitest';
import { ReviewSchema, type Business } from '../core/review.ts';
import { ContentError, loadContent, type ContentProblem } from './load-content.ts';
import { MAX_CONTENT_FILE_BYTES } from './read-content.ts';
import { makeBusiness } from '../../test/support/builders.ts';

const SITE_URL = 'https://reviews.test.example';
const REAL_CONTENT = path.resolve(import.meta.dirname, '../../content');

type Json = Record<string, unknown>;

/** The crew, services and areas the review files of these tests name. */
const SPRINGFIELD: Partial<Business> = {
  technicians: [
    { id: 'mike-alvarez', name: 'Mike Álvarez', aliases: ['Mikey'] },
    { id: 'sam-lee', name: 'Sam Lee' },
  ],
  services: [
    { id: 'roof-replacement', name: 'Roof Replacement' },
    { id: 'leak-repair', name: 'Leak Repair' },
  ],
  service_areas: [
    { id: 'springfield', name: 'Springfield' },
    { id: 'eugene', name: 'Eugene' },
  ],
};

/** business.json as written: valid unless `overrides` break it (`undefined` removes a key). */
function businessJson(overrides: Json = {}): Json {
  return { ...makeBusiness(SPRINGFIELD), ...overrides };
}

/** Front matter of a valid, verified review; `undefined` in overrides removes a key. */
function makeFrontMatter(overrides: Json = {}): Json {
  const merged: Json = {
    rating: 5,
    date: '2024-05-01',
    author: 'Jane D.',
    source: 'google',
    verification: 'job_record_match',
    technicians: ['mike-alvarez'],
    services: ['roof-replacement'],
    ...overrides,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function makeContentDir(business: Json = businessJson()): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'load-content-'));
  tempDirs.push(dir);
  await mkdir(path.join(dir, 'reviews'));
  await writeBusiness(dir, business);
  return dir;
}

async function writeBusiness(dir: string, business: Json | string): Promise<void> {
  const source = typeof business === 'string' ? business : JSON.stringify(business, null, 2);
  await writeFile(path.join(dir, 'business.json'), source);
}

/**
 * Writes `reviews/<rel>.md`. Front matter given as an object is dumped as YAML (strings that look
 * like dates come out quoted); given as a string it is written verbatim, for unquoted dates and
 * broken YAML.
 */
async function writeReview(
  dir: string,
  rel: string,
  frontMatter: Json | string = makeFrontMatter(),
  body = 'They replaced our roof in two days and left the yard clean.',
): Promise<string> {
  const file = path.join(dir, 'reviews', `${rel}.md`);
  await mkdir(path.dirname(file), { recursive: true });
  const yamlText = typeof frontMatter === 'string' ? frontMatter : yaml.dump(frontMatter);
  await writeFile(file, `---\n${yamlText.trimEnd()}\n---\n${body}\n`);
  return file;
}

async function writeInsight(dir: string, name: string, source: string): Promise<void> {
  await mkdir(path.join(dir, 'insights'), { recursive: true });
  await writeFile(path.join(dir, 'insights', name), source);
}

/** How the loader names a file in its problems (relative to the working directory). */
function shown(dir: string, ...parts: string[]): string {
  return path.relative(process.cwd(), path.join(dir, ...parts));
}

function load(dir: string, siteUrl = SITE_URL) {
  return loadContent({ contentDir: dir, siteUrl });
}

async function problemsOf(dir: string): Promise<ContentProblem[]> {
  const error = await load(dir).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ContentError);
  return (error as ContentError).problems;
}

async function expectOnlyProblem(
  dir: string,
  expected: { file: string; field: string; message: string | RegExp },
): Promise<void> {
  const problems = await problemsOf(dir);
  expect(problems).toEqual([
    {
      file: expected.file,
      field: expected.field,
      message:
        typeof expected.message === 'string'
          ? expected.message
          : expect.stringMatching(expected.message),
    },
  ]);
}

describe('review cross-references', () => {
  test('an unknown technician id fails with technicians.<index> and the known ids', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-tech', makeFrontMatter({ technicians: ['sam-lee', 'bob-smith'] }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-tech.md'),
      field: 'technicians.1',
      message: 'unknown technician id "bob-smith"; known ids: mike-alvarez, sam-lee',
    });
  });

  test('an unknown service id fails with services.<index> and the known ids', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-service', makeFrontMatter({ services: ['chimney'] }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-service.md'),
      field: 'services.0',
      message: 'unknown service id "chimney"; known ids: roof-replacement, leak-repair',
    });
  });

  test('an unknown service_area fails with the known area ids', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-area', makeFrontMatter({ service_area: 'portland' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-area.md'),
      field: 'service_area',
      message: 'unknown service area id "portland"; known ids: springfield, eugene',
    });
  });
});

describe('review dates', () => {
  const unquoted = (field: string, value: string) =>
    [
      'rating: 5',
      'date: 2024-05-01',
      'author: Jane D.',
      'source: google',
      'verification: job_record_match',
      'technicians: [mike-alvarez]',
      'services: [roof-replacement]',
    ]
      .filter((line) => !line.startsWith(`${field}:`))
      .concat(`${field}: ${value}`)
      .join('\n');

  test('an impossible date written unquoted fails instead of rolling over to March', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'feb-30', unquoted('date', '2023-02-30'));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/feb-30.md'),
      field: 'date',
      message: 'expected a real calendar date (YYYY-MM-DD)',
    });
  });

  test('an impossible date written quoted fails the same way', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'feb-30', unquoted('date', '"2023-02-30"'));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/feb-30.md'),
      field: 'date',
      message: 'expected a real calendar date (YYYY-MM-DD)',
    });
  });

  test.each(['updated', 'verified_on'])('an impossible unquoted %s fails', async (field) => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-date', unquoted(field, '2024-06-31'));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-date.md'),
      field,
      message: 'expected a real calendar date (YYYY-MM-DD)',
    });
  });

  test('an impossible unquoted reply date fails with reply.date', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'bad-reply',
      `${unquoted('date', '2024-05-01')}\nreply:\n  date: 2024-13-01\n  text: Thanks!`,
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-reply.md'),
      field: 'reply.date',
      message: 'expected a real calendar date (YYYY-MM-DD)',
    });
  });

  test('a date not written YYYY-MM-DD fails with the expected format', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'us-date', makeFrontMatter({ date: '05/01/2024' }));
    const problems = await problemsOf(dir);
    expect(problems).toContainEqual({
      file: shown(dir, 'reviews/us-date.md'),
      field: 'date',
      message: 'expected a date written YYYY-MM-DD',
    });
  });

  test('unquoted valid dates are published exactly as written', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'unquoted',
      `${unquoted('date', '2024-02-29')}\nverified_on: 2024-03-01\nupdated: 2024-03-02`,
    );
    const [review] = (await load(dir)).reviews;
    expect(review).toMatchObject({
      date: '2024-02-29',
      verification: { verified_on: '2024-03-01' },
      updated: '2024-03-02',
    });
  });

  test('updated before date fails with updated', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'early-update', makeFrontMatter({ updated: '2024-04-30' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/early-update.md'),
      field: 'updated',
      message: 'must be on or after date (2024-05-01)',
    });
  });

  test('an owner reply dated before the review fails with reply.date', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'early-reply',
      makeFrontMatter({ reply: { date: '2024-04-01', text: 'Thank you!' } }),
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/early-reply.md'),
      field: 'reply.date',
      message: 'must be on or after date (2024-05-01)',
    });
  });
});

describe('review rating, text and enums', () => {
  test.each([
    [0, 'Too small: expected number to be >=1'],
    [6, 'Too big: expected number to be <=5'],
    [4.5, 'expected a whole number of stars'],
  ])('rating %s fails with the range or whole-number rule', async (rating, message) => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-rating', makeFrontMatter({ rating }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-rating.md'),
      field: 'rating',
      message,
    });
  });

  test.each([
    ['an empty body', ''],
    ['a whitespace-only body', '  \n\t\n'],
  ])('%s fails as missing text', async (_name, body) => {
    const dir = await makeContentDir();
    await writeReview(dir, 'no-text', makeFrontMatter(), body);
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/no-text.md'),
      field: 'text',
      message: 'the review text (the body after the front matter) is missing',
    });
  });

  test.each([
    ['a zero-width space', '\u200b'],
    ['a byte-order mark and a word joiner', '\ufeff\u2060'],
  ])('a body of %s alone fails as text with nothing to read', async (_name, body) => {
    const dir = await makeContentDir();
    await writeReview(dir, 'invisible', makeFrontMatter(), body);
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/invisible.md'),
      field: 'text',
      message: 'the review text (the body after the front matter) holds no visible character',
    });
  });

  test('a bad source names the allowed platforms', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-source', makeFrontMatter({ source: 'goggle' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-source.md'),
      field: 'source',
      message: /expected one of .*"google".*"other"/,
    });
  });

  test('a bad verification names the allowed methods', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'bad-verification', makeFrontMatter({ verification: 'manual' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/bad-verification.md'),
      field: 'verification',
      message:
        /expected one of "job_record_match"\|"invitation_link"\|"platform_verified"\|"manual_check"/,
    });
  });

  test('an author of invisible characters only is reported, not published as ""', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'zero-width', makeFrontMatter({ author: '\u200b' }));
    await writeReview(dir, 'delete', makeFrontMatter({ author: '\u007f \u00a0' }));
    expect(await problemsOf(dir)).toEqual(
      ['delete', 'zero-width'].map((name) => ({
        file: shown(dir, `reviews/${name}.md`),
        field: 'author',
        message: 'must hold a visible character',
      })),
    );
  });

  test('a missing author is reported by name', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'no-author', makeFrontMatter({ author: undefined }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/no-author.md'),
      field: 'author',
      message: 'is required (expected string)',
    });
  });
});

describe('review files and front matter', () => {
  test('the same file name in two subfolders of reviews/ is a duplicate id', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, '2023/new-roof');
    await writeReview(dir, 'archive/new-roof');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/archive/new-roof.md'),
      field: '',
      message: `duplicate review id "new-roof" (also ${shown(dir, 'reviews/2023/new-roof.md')})`,
    });
  });

  test('a missing reviews/ is a warning; one named "Reviews" instead is an error', async () => {
    const dir = await makeContentDir();
    await rm(path.join(dir, 'reviews'), { recursive: true });
    const empty = await load(dir);
    expect(empty.reviews).toEqual([]);
    expect(empty.warnings).toEqual([
      {
        file: shown(dir, 'reviews'),
        field: '',
        message: expect.stringMatching(/^does not exist: no review is published/),
      },
    ]);
    await mkdir(path.join(dir, 'Reviews'));
    await writeReview(dir, '../Reviews/new-roof');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews'),
      field: '',
      message:
        'is missing, and "Reviews" is there: the folder must be named "reviews", in lower case (names are case-sensitive on Linux)',
    });
  });

  test('the same review in a second file is an error; the same source_url alone a warning', async () => {
    const dir = await makeContentDir();
    const first = await writeReview(dir, 'hail-claim');
    const { readFile, symlink } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'reviews', 'hail-claim-copy.md'), await readFile(first));
    await symlink(first, path.join(dir, 'reviews', 'linked.md'));
    await writeReview(
      dir,
      'platform-a',
      makeFrontMatter({ source_id: 'g-1', author: 'A' }),
      'One.',
    );
    await writeReview(
      dir,
      'platform-b',
      makeFrontMatter({ source_id: 'g-1', author: 'B' }),
      'Two.',
    );
    const url = 'https://maps.example/summit-ridge';
    await writeReview(dir, 'url-a', makeFrontMatter({ source_url: url, author: 'C' }), 'Three.');
    await writeReview(dir, 'url-b', makeFrontMatter({ source_url: url, author: 'D' }), 'Four.');
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'reviews/hail-claim.md'),
        field: '',
        message: `the same review as ${shown(dir, 'reviews/hail-claim-copy.md')} (date, author, rating and text): publish it once`,
      },
      {
        file: shown(dir, 'reviews/linked.md'),
        field: '',
        message: `the same review as ${shown(dir, 'reviews/hail-claim-copy.md')} (date, author, rating and text): publish it once`,
      },
      {
        file: shown(dir, 'reviews/platform-b.md'),
        field: 'source_id',
        message: `the google review "g-1" is also ${shown(dir, 'reviews/platform-a.md')}: publish it once`,
      },
    ]);
    await rm(path.join(dir, 'reviews', 'hail-claim-copy.md'));
    await rm(path.join(dir, 'reviews', 'linked.md'));
    await rm(path.join(dir, 'reviews', 'platform-b.md'));
    const content = await load(dir);
    expect(content.reviews).toHaveLength(4);
    expect(content.warnings).toEqual([
      {
        file: shown(dir, 'reviews/url-b.md'),
        field: 'source_url',
        message: `is also the source_url of ${shown(dir, 'reviews/url-a.md')}: the same review twice? (it is published)`,
      },
    ]);
  });

  test.each(['New_Roof', 'new roof', 'new--roof', 'New-Roof'])(
    'the non-kebab file name "%s.md" fails',
    async (name) => {
      const dir = await makeContentDir();
      await writeReview(dir, name);
      await expectOnlyProblem(dir, {
        file: shown(dir, `reviews/${name}.md`),
        field: '',
        message: `file name must be a kebab-case id (a-z, 0-9, -) followed by .md; "${name}" is not`,
      });
    },
  );

  test('an unknown front matter key is reported at the key with the closest known key', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'typo', makeFrontMatter({ rating: undefined, ratng: 5 }));
    const problems = await problemsOf(dir);
    const file = shown(dir, 'reviews/typo.md');
    expect(problems).toEqual([
      { file, field: 'rating', message: 'is required (expected number)' },
      { file, field: 'ratng', message: 'unknown key "ratng"; did you mean "rating"?' },
    ]);
  });

  test('an unknown key far from any known one lists the known keys', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'extra', makeFrontMatter({ customer_phone: '555-0100' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/extra.md'),
      field: 'customer_phone',
      message: /^unknown key "customer_phone"; known keys: rating, date, .*, private$/,
    });
  });

  test('an unknown key inside reply is reported at reply.<key>', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'reply-typo',
      makeFrontMatter({ reply: { date: '2024-05-02', txt: 'Hi' } }),
    );
    const problems = await problemsOf(dir);
    const file = shown(dir, 'reviews/reply-typo.md');
    expect(problems).toEqual([
      { file, field: 'reply.text', message: 'is required (expected string)' },
      { file, field: 'reply.txt', message: 'unknown key "txt"; did you mean "text"?' },
    ]);
  });

  test('invalid YAML fails with the parser message', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'broken-yaml',
      'rating: 5\ntechnicians: [mike-alvarez\ndate: "2024-05-01"',
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/broken-yaml.md'),
      field: 'front matter',
      message: /^is not valid YAML \(.+\)$/,
    });
  });

  test('a duplicated YAML key is invalid YAML', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'twice', `${yaml.dump(makeFrontMatter())}rating: 4`);
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/twice.md'),
      field: 'front matter',
      message: /^is not valid YAML \(duplicated mapping key/,
    });
  });

  test('JavaScript front matter (---js) is refused, not evaluated', async () => {
    const dir = await makeContentDir();
    const file = path.join(dir, 'reviews', 'script.md');
    await writeFile(
      file,
      '---js\n(globalThis.__frontMatterRan = true, { rating: 5, date: "2024-05-01", author: "A", source: "google" })\n---\nText.\n',
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/script.md'),
      field: 'front matter',
      message: /front matter must be YAML, not javascript/,
    });
    expect((globalThis as { __frontMatterRan?: boolean }).__frontMatterRan).toBeUndefined();
  });

  test('front matter in a language no engine reads (---toml) is refused in the same words', async () => {
    const dir = await makeContentDir();
    await writeFile(path.join(dir, 'reviews', 'toml.md'), '---toml\nrating = 5\n---\nText.\n');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/toml.md'),
      field: 'front matter',
      message: 'is not valid YAML (front matter must be YAML, not toml (remove "toml" after ---))',
    });
  });

  test('an optional key left blank is absent; a required one left blank is reported', async () => {
    const dir = await makeContentDir();
    const blank = `rating: 5\ndate: "2024-05-01"\nauthor: Jo\nsource: google\nverification: manual_check\ntitle:\nservices:\nlocation:\n`;
    await writeReview(dir, 'blank-optional', blank);
    const [review] = (await load(dir)).reviews;
    expect(review).toMatchObject({ title: null, service_ids: [], author: { location: null } });
    await writeReview(dir, 'blank-author', blank.replace('author: Jo', 'author:'));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/blank-author.md'),
      field: 'author',
      message: /string/,
    });
  });

  test('a date not written YYYY-MM-DD is one problem, not also "not a real date"', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'short-date', makeFrontMatter({ date: '2024-2-1' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/short-date.md'),
      field: 'date',
      message: 'expected a date written YYYY-MM-DD',
    });
  });

  test('front matter that is a list, not a mapping, fails', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'list', '- rating: 5');
    const problems = await problemsOf(dir);
    expect(problems).toContainEqual({
      file: shown(dir, 'reviews/list.md'),
      field: '',
      message: 'Invalid input: expected object, received array',
    });
  });
});

describe('business.json', () => {
  test("without a website or a founding year, the feed ids' stand-ins are warned of", async () => {
    const dir = await makeContentDir(
      businessJson({
        name: 'Peak Roofing',
        contact: { phone: '+1 555 0100' },
        founded_year: undefined,
      }),
    );
    await writeReview(dir, 'fine');
    const { warnings } = await load(dir);
    expect(warnings).toEqual([
      {
        file: shown(dir, 'business.json'),
        field: 'contact.website',
        message: expect.stringContaining('(tag:peak-roofing.invalid,2000:…)'),
      },
      {
        file: shown(dir, 'business.json'),
        field: 'founded_year',
        message: expect.stringContaining('feed readers show every review again as new'),
      },
    ]);
    const complete = await makeContentDir();
    await writeReview(complete, 'fine');
    expect((await load(complete)).warnings).toEqual([]);
  });

  test('contact, all of whose parts are optional, may be left out', async () => {
    const dir = await makeContentDir(businessJson({ contact: undefined }));
    await writeReview(dir, 'fine');
    expect((await load(dir)).business.contact).toEqual({});
  });

  test('a missing required field is named', async () => {
    const dir = await makeContentDir(businessJson({ name: undefined }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'name',
      message: 'is required (expected string)',
    });
  });

  test('a missing nested field is named by its path', async () => {
    const business = businessJson();
    delete (business['address'] as Json)['locality'];
    const dir = await makeContentDir(business);
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'address.locality',
      message: 'is required (expected string)',
    });
  });

  test('an unknown key is reported at the key with the closest known key', async () => {
    const dir = await makeContentDir(businessJson({ founded_yaer: 2005 }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'founded_yaer',
      message: 'unknown key "founded_yaer"; did you mean "founded_year"?',
    });
  });

  test('an unknown key inside a technician is reported at technicians.<index>.<key>', async () => {
    const dir = await makeContentDir(
      businessJson({ technicians: [{ id: 'sam-lee', name: 'Sam Lee', alias: ['Sammy'] }] }),
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'technicians.0.alias',
      message: 'unknown key "alias"; did you mean "aliases"?',
    });
  });

  test('a timezone that is not IANA fails', async () => {
    const dir = await makeContentDir(businessJson({ timezone: 'Mars/Olympus_Mons' }));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'timezone',
      message: 'expected an IANA time zone',
    });
  });

  test('a duplicate technician id fails at the second one', async () => {
    const dir = await makeContentDir(
      businessJson({
        technicians: [
          { id: 'sam-lee', name: 'Sam Lee' },
          { id: 'sam-lee', name: 'Samuel Lee' },
        ],
      }),
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: 'technicians.1.id',
      message: 'duplicate id "sam-lee"',
    });
  });

  test('a duplicate id is reported in the same round as a problem elsewhere in the file', async () => {
    const business = businessJson({
      technicians: [
        { id: 'sam-lee', name: 'Sam Lee' },
        { id: 'sam-lee', name: 'Samuel Lee' },
      ],
      service_areas: [
        { id: 'lakewood', name: 'Lakewood' },
        { id: 'lakewood', name: 'Lakewood Heights' },
      ],
    });
    delete business.services;
    const dir = await makeContentDir(business);
    const file = shown(dir, 'business.json');
    expect(await problemsOf(dir)).toEqual([
      { file, field: 'services', message: 'is required (expected array)' },
      { file, field: 'technicians.1.id', message: 'duplicate id "sam-lee"' },
      { file, field: 'service_areas.1.id', message: 'duplicate id "lakewood"' },
    ]);
  });

  test('two technicians with one name, or an alias of another, fail naming both', async () => {
    // Reviews publish technicians by name and search finds them by id, name or alias: two
    // technicians called "Zoë Ng" would be counted as one and found under one id only.
    const dir = await makeContentDir(
      businessJson({
        technicians: [
          { id: 'zoe-ng', name: 'Zoë Ng', aliases: ['Luke'] },
          { id: 'lukasz-wrobel', name: 'Łukasz Wróbel', aliases: ['luke'] },
          { id: 'zoe-ng-2', name: 'ZOE NG' },
          { id: 'sam', name: 'Sam Lee', aliases: ['Sammy', 'Sammy'] },
          { id: 'sam-2', name: 'Samantha Ruiz', aliases: ['Sam'] },
        ],
      }),
    );
    const owned = (name: string, id: string) =>
      `"${name}" also names technician "${id}": each id, name and alias must name one technician`;
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'business.json'),
        field: 'technicians.1.aliases.0',
        message: owned('luke', 'zoe-ng'),
      },
      {
        file: shown(dir, 'business.json'),
        field: 'technicians.2.name',
        message: owned('ZOE NG', 'zoe-ng'),
      },
      {
        file: shown(dir, 'business.json'),
        field: 'technicians.4.aliases.0',
        message: owned('Sam', 'sam'),
      },
    ]);
  });

  test('invalid JSON fails with the parser message', async () => {
    const dir = await makeContentDir();
    await writeBusiness(dir, '{ "name": "Test Roofing", }');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: '',
      message: /^is not valid JSON \(.+\)$/,
    });
  });

  test('JSON null is reported, not an empty list of problems', async () => {
    const dir = await makeContentDir();
    await writeBusiness(dir, 'null');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: '',
      message: 'Invalid input: expected object, received null',
    });
  });

  test('a missing business.json fails', async () => {
    const dir = await makeContentDir();
    await rm(path.join(dir, 'business.json'));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'business.json'),
      field: '',
      message: 'is missing: the business metadata is required',
    });
  });
});

describe('insights/faq.json', () => {
  test('a missing answer is named by index', async () => {
    const dir = await makeContentDir();
    await writeInsight(dir, 'faq.json', JSON.stringify([{ question: 'Do you fix leaks?' }]));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'insights/faq.json'),
      field: '0.answer',
      message: 'is required (expected string)',
    });
  });

  test('an unknown key is reported at the key', async () => {
    const dir = await makeContentDir();
    await writeInsight(
      dir,
      'faq.json',
      JSON.stringify([{ question: 'Q?', answer: 'A.', anwser: 'A.' }]),
    );
    await expectOnlyProblem(dir, {
      file: shown(dir, 'insights/faq.json'),
      field: '0.anwser',
      message: 'unknown key "anwser"; did you mean "answer"?',
    });
  });

  test('invalid JSON fails', async () => {
    const dir = await makeContentDir();
    await writeInsight(dir, 'faq.json', '[{"question": "Q?"');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'insights/faq.json'),
      field: '',
      message: /^is not valid JSON/,
    });
  });

  test('JSON null fails instead of publishing an empty FAQ', async () => {
    const dir = await makeContentDir();
    await writeInsight(dir, 'faq.json', 'null');
    await expectOnlyProblem(dir, {
      file: shown(dir, 'insights/faq.json'),
      field: '',
      message: 'Invalid input: expected array, received null',
    });
  });

  test('a valid FAQ and summary are loaded', async () => {
    const dir = await makeContentDir();
    await writeInsight(dir, 'faq.json', JSON.stringify([{ question: 'Q?', answer: 'A.' }]));
    await writeInsight(dir, 'summary.md', '---\ntitle: In short\n---\nTidy crews.\n');
    expect((await load(dir)).editorial).toEqual({
      faq: [{ question: 'Q?', answer: 'A.' }],
      summary: { title: 'In short', text: 'Tidy crews.' },
    });
  });

  test('without insights/ the FAQ is empty and the summary null', async () => {
    const dir = await makeContentDir();
    expect((await load(dir)).editorial).toEqual({ faq: [], summary: null });
  });
});

describe('several problems', () => {
  test('problems across files are all reported at once', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'a-bad-tech', makeFrontMatter({ technicians: ['nobody'] }));
    await writeReview(dir, 'b-bad-rating', makeFrontMatter({ rating: 0 }));
    await writeReview(dir, 'c-fine');
    await writeReview(dir, 'D_bad_name');
    await writeInsight(dir, 'faq.json', '{');
    const problems = await problemsOf(dir);
    expect(problems.map(({ file, field }) => ({ file, field }))).toEqual([
      { file: shown(dir, 'reviews/D_bad_name.md'), field: '' },
      { file: shown(dir, 'reviews/a-bad-tech.md'), field: 'technicians.0' },
      { file: shown(dir, 'reviews/b-bad-rating.md'), field: 'rating' },
      { file: shown(dir, 'insights/faq.json'), field: '' },
    ]);
  });

  test('problems within one file are all reported at once', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'many',
      makeFrontMatter({ rating: 0, technicians: ['nobody'], services: ['chimney'], source: 'fax' }),
      '',
    );
    const problems = await problemsOf(dir);
    expect(problems.map((problem) => problem.field).sort()).toEqual([
      'rating',
      'services.0',
      'source',
      'technicians.0',
      'text',
    ]);
  });

  test('the error message lists every problem as file › field: message', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'a', makeFrontMatter({ technicians: ['nobody'] }));
    await writeReview(dir, 'b', makeFrontMatter({ rating: 6 }));
    const error = await load(dir).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).message).toBe(
      [
        '2 content problems:',
        `  ${shown(dir, 'reviews/a.md')} › technicians.0: unknown technician id "nobody"; known ids: mike-alvarez, sam-lee`,
        `  ${shown(dir, 'reviews/b.md')} › rating: Too big: expected number to be <=5`,
      ].join('\n'),
    );
  });
});

describe('published records', () => {
  test('a full review becomes the §4 record, keys in wire order', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'new-roof',
      makeFrontMatter({
        title: 'New roof in two days',
        location: 'Springfield, OR',
        source_url: 'https://maps.example/review/1',
        verified_on: '2024-05-03',
        technicians: ['sam-lee', 'mike-alvarez'],
        services: ['roof-replacement', 'leak-repair'],
        service_area: 'springfield',
        language: 'es',
        reply: { date: '2024-05-04', text: '  Thank you, Jane!  ' },
        updated: '2024-05-02',
      }),
      '\n  Great crew.\n\nWould hire again.  \n',
    );
    const [review] = (await load(dir)).reviews;
    expect(review).toEqual({
      id: 'new-roof',
      url: `${SITE_URL}/reviews/new-roof/`,
      rating: 5,
      date: '2024-05-01',
      title: 'New roof in two days',
      text: 'Great crew.\n\nWould hire again.',
      language: 'es',
      author: { name: 'Jane D.', location: 'Springfield, OR' },
      verified: true,
      verification: { method: 'job_record_match', verified_on: '2024-05-03' },
      source: { platform: 'google', url: 'https://maps.example/review/1' },
      technicians: ['Sam Lee', 'Mike Álvarez'],
      service_ids: ['roof-replacement', 'leak-repair'],
      service_area_id: 'springfield',
      owner_reply: { date: '2024-05-04', text: 'Thank you, Jane!' },
      updated: '2024-05-04',
    });
    expect(Object.keys(review!)).toEqual([
      'id',
      'url',
      'rating',
      'date',
      'title',
      'text',
      'language',
      'author',
      'verified',
      'verification',
      'source',
      'technicians',
      'service_ids',
      'service_area_id',
      'owner_reply',
      'updated',
    ]);
    expect(ReviewSchema.safeParse(review).success).toBe(true);
  });

  test('a minimal review defaults language to en and the optional fields to null', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'minimal',
      makeFrontMatter({ technicians: undefined, services: undefined }),
    );
    const [review] = (await load(dir)).reviews;
    expect(review).toMatchObject({
      title: null,
      language: 'en',
      author: { name: 'Jane D.', location: null },
      verification: { method: 'job_record_match', verified_on: null },
      source: { platform: 'google', url: null },
      technicians: [],
      service_ids: [],
      service_area_id: null,
      owner_reply: null,
      updated: '2024-05-01',
    });
  });

  test('a blank title or location is null', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'blank', makeFrontMatter({ title: '  ', location: '' }));
    const [review] = (await load(dir)).reviews;
    expect(review).toMatchObject({ title: null, author: { location: null } });
  });

  test('a review without verification is skipped: listed, not published', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'verified');
    await writeReview(dir, 'unverified', makeFrontMatter({ verification: undefined }));
    const content = await load(dir);
    expect(content.reviews.map((review) => review.id)).toEqual(['verified']);
    expect(content.skipped).toEqual([
      {
        file: shown(dir, 'reviews/unverified.md'),
        reason: 'no verification: unverified reviews are not published',
      },
    ]);
  });

  test('an unverified review is still validated', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'unverified', makeFrontMatter({ verification: undefined, rating: 9 }));
    expect(await problemsOf(dir)).toEqual([
      expect.objectContaining({ file: shown(dir, 'reviews/unverified.md'), field: 'rating' }),
    ]);
  });

  test('private front matter never appears in the published content', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'with-private',
      makeFrontMatter({
        private: { job_number: 'JOB-SECRET-42', email: 'hidden@example.com', notes: ['call back'] },
      }),
    );
    const content = await load(dir);
    expect(content.reviews).toHaveLength(1);
    expect(content.reviews[0]).not.toHaveProperty('private');
    const published = JSON.stringify(content);
    for (const secret of ['JOB-SECRET-42', 'hidden@example.com', 'call back', '"private"']) {
      expect(published).not.toContain(secret);
    }
  });

  test('technician ids become canonical names in the order written', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'two-techs',
      makeFrontMatter({ technicians: ['sam-lee', 'mike-alvarez'] }),
    );
    expect((await load(dir)).reviews[0]!.technicians).toEqual(['Sam Lee', 'Mike Álvarez']);
  });

  test.each([
    ['date alone', {}, '2024-05-01'],
    ['updated later than date', { updated: '2024-06-01' }, '2024-06-01'],
    [
      'reply later than updated',
      { updated: '2024-06-01', reply: { date: '2024-07-01', text: 'Thanks' } },
      '2024-07-01',
    ],
    [
      'updated later than reply',
      { updated: '2024-08-01', reply: { date: '2024-07-01', text: 'Thanks' } },
      '2024-08-01',
    ],
    ['reply without updated', { reply: { date: '2024-05-09', text: 'Thanks' } }, '2024-05-09'],
    [
      'everything on the same day',
      { updated: '2024-05-01', reply: { date: '2024-05-01', text: 'Thanks' } },
      '2024-05-01',
    ],
  ])(
    'updated is the latest of date, updated and reply date: %s',
    async (_name, overrides, expected) => {
      const dir = await makeContentDir();
      await writeReview(dir, 'dated', makeFrontMatter(overrides));
      expect((await load(dir)).reviews[0]!.updated).toBe(expected);
    },
  );

  test('reviews come newest first: date descending, then id ascending', async () => {
    const dir = await makeContentDir();
    const written: [string, string][] = [
      ['b-same-day', '2024-05-01'],
      ['z-oldest', '2020-01-01'],
      ['a-same-day', '2024-05-01'],
      ['m-newest', '2025-01-01'],
      ['c-same-day', '2024-05-01'],
    ];
    for (const [id, date] of written)
      await writeReview(dir, `nested/${id}`, makeFrontMatter({ date, author: id }));
    expect((await load(dir)).reviews.map((review) => review.id)).toEqual([
      'm-newest',
      'a-same-day',
      'b-same-day',
      'c-same-day',
      'z-oldest',
    ]);
  });

  test.each([SITE_URL, `${SITE_URL}/`])(
    'url is {siteUrl}/reviews/<id>/ (site URL %s)',
    async (siteUrl) => {
      const dir = await makeContentDir();
      await writeReview(dir, '2024-05-01-new-roof');
      expect((await load(dir, siteUrl)).reviews[0]!.url).toBe(
        `${SITE_URL}/reviews/2024-05-01-new-roof/`,
      );
    },
  );

  test('the id comes from the file name, whatever folder it sits in', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, '2024/05/roof-job');
    expect((await load(dir)).reviews.map((review) => review.id)).toEqual(['roof-job']);
  });

  test('files that are not .md are ignored', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'only-one');
    await writeFile(path.join(dir, 'reviews', 'README.txt'), 'notes for editors');
    expect((await load(dir)).reviews).toHaveLength(1);
  });
});

describe('the sample content in content/', () => {
  test('is valid, publishes at least 140 reviews and skips the 4 unverified files', async () => {
    const content = await load(REAL_CONTENT);
    expect(content.reviews.length).toBeGreaterThanOrEqual(140);
    expect(content.skipped).toHaveLength(4);
    for (const skipped of content.skipped) {
      expect(skipped.file).toMatch(/^content\/reviews\/.*unverified.*\.md$/);
      expect(skipped.reason).toBe('no verification: unverified reviews are not published');
    }
    const ids = new Set(content.reviews.map((review) => review.id));
    expect(ids.size).toBe(content.reviews.length);
    for (const skipped of content.skipped)
      expect(ids).not.toContain(path.basename(skipped.file, '.md'));
    for (const review of content.reviews) expect(ReviewSchema.safeParse(review).success).toBe(true);
  });
});

describe('files as they come from editors and file systems', () => {
  const BODY = 'They replaced our roof in two days.\nThe yard was clean.';

  test('CRLF line endings and a BOM publish the same bytes as LF', async () => {
    const lf = await makeContentDir();
    await writeReview(lf, 'new-roof', makeFrontMatter({ title: 'Great job' }), BODY);
    const crlf = await makeContentDir();
    const file = await writeReview(crlf, 'new-roof', makeFrontMatter({ title: 'Great job' }), BODY);
    const { readFile } = await import('node:fs/promises');
    const text = (await readFile(file, 'utf8')).replace(/\n/g, '\r\n');
    await writeFile(file, `\uFEFF${text}`);
    await writeBusiness(
      crlf,
      `\uFEFF${JSON.stringify(businessJson(), null, 2).replace(/\n/g, '\r\n')}`,
    );
    const [a, b] = [(await load(lf)).reviews, (await load(crlf)).reviews];
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(b[0]!.text).toBe(BODY);
  });

  test('control characters written as JSON escapes in business.json are dropped too', async () => {
    const dir = await makeContentDir(
      businessJson({
        name: 'Summit\u0007 Ridge',
        technicians: [{ id: 'mike-alvarez', name: 'Mike\u0001 Alvarez' }],
      }),
    );
    await writeReview(dir, 'fine');
    const content = await load(dir);
    expect(content.business.name).toBe('Summit Ridge');
    expect(content.business.technicians[0]!.name).toBe('Mike Alvarez');
    expect(content.reviews[0]!.technicians).toEqual(['Mike Alvarez']);
  });

  test('control characters are dropped from what is published', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'bell',
      makeFrontMatter({ title: 'Ding\u0007 dong' }),
      'Roof\u0000 is\u001b great.',
    );
    const [review] = (await load(dir)).reviews;
    expect(review!.title).toBe('Ding dong');
    expect(review!.text).toBe('Roof is great.');
  });

  test('a review in Latin-1 or UTF-16 is refused naming the encoding, not published garbled', async () => {
    const dir = await makeContentDir();
    const latin1 = path.join(dir, 'reviews', 'latin.md');
    await writeFile(latin1, Buffer.from('---\nrating: 5\n---\nJos\xe9 was great\n', 'latin1'));
    const utf16 = path.join(dir, 'reviews', 'wide.md');
    await writeFile(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\n', 'utf16le')]),
    );
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'reviews/latin.md'),
        field: '',
        message: expect.stringMatching(/^is not UTF-8 text .*save it as UTF-8$/),
      },
      {
        file: shown(dir, 'reviews/wide.md'),
        field: '',
        message: 'is UTF-16 text: save it as UTF-8',
      },
    ]);
  });

  test('a review text past the limit is refused with its length', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'paste', makeFrontMatter(), 'x'.repeat(20_001));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/paste.md'),
      field: 'text',
      message: "is 20,001 characters; a review's text may be at most 20,000",
    });
  });

  test('front matter after a blank line, or none at all, is one problem, not every field missing', async () => {
    const dir = await makeContentDir();
    const good = await writeReview(dir, 'good');
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(good, 'utf8');
    await writeFile(path.join(dir, 'reviews', 'blank-first.md'), `\n  ${source}`);
    await writeFile(path.join(dir, 'reviews', 'no-front-matter.md'), 'Great roof, great crew.\n');
    await writeFile(
      path.join(dir, 'reviews', 'two-boms.md'),
      `\uFEFF\uFEFF${source.replace('Jane D.', 'Jo B.')}`,
    );
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'reviews/blank-first.md'),
        field: 'front matter',
        message: 'must begin on the first line: blank lines or spaces come before its opening ---',
      },
      {
        file: shown(dir, 'reviews/no-front-matter.md'),
        field: 'front matter',
        message: expect.stringMatching(/^is missing: a review starts with a --- line/),
      },
    ]);
  });

  test('the text counts characters as a reader does: 15,000 emoji are 15,000, under the limit', async () => {
    const dir = await makeContentDir();
    await writeReview(dir, 'emoji', makeFrontMatter(), '🏠'.repeat(15_000));
    expect((await load(dir)).reviews).toHaveLength(1);
    await writeReview(dir, 'emoji', makeFrontMatter(), '🏠'.repeat(20_001));
    await expectOnlyProblem(dir, {
      file: shown(dir, 'reviews/emoji.md'),
      field: 'text',
      message: "is 20,001 characters; a review's text may be at most 20,000",
    });
  });

  test('a title, author, location or reply past its length is refused, naming the field', async () => {
    const dir = await makeContentDir();
    await writeReview(
      dir,
      'pasted',
      makeFrontMatter({
        title: 't'.repeat(301),
        author: 'a'.repeat(201),
        location: 'l'.repeat(201),
        reply: { date: '2024-05-02', text: 'r'.repeat(20_001) },
      }),
    );
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'reviews/pasted.md'),
        field: 'title',
        message: 'may be at most 300 characters',
      },
      {
        file: shown(dir, 'reviews/pasted.md'),
        field: 'author',
        message: 'may be at most 200 characters',
      },
      {
        file: shown(dir, 'reviews/pasted.md'),
        field: 'location',
        message: 'may be at most 200 characters',
      },
      {
        file: shown(dir, 'reviews/pasted.md'),
        field: 'reply.text',
        message: 'may be at most 20,000 characters',
      },
    ]);
  });

  test('paths of the wrong kind are problems naming the file, not crashes', async () => {
    const dir = await makeContentDir();
    await rm(path.join(dir, 'reviews'), { recursive: true });
    await writeFile(path.join(dir, 'reviews'), 'not a folder');
    await mkdir(path.join(dir, 'insights', 'faq.json'), { recursive: true });
    expect(await problemsOf(dir)).toEqual([
      {
        file: shown(dir, 'reviews'),
        field: '',
        message: 'is a file, not the folder of review files',
      },
      {
        file: shown(dir, 'insights/faq.json'),
        field: '',
        message: 'cannot be read: it is a folder, not a file',
      },
    ]);
    const other = await makeContentDir();
    await rm(path.join(other, 'business.json'));
    await mkdir(path.join(other, 'business.json'));
    expect(await problemsOf(other)).toEqual([
      {
        file: shown(other, 'business.json'),
        field: '',
        message: 'cannot be read: it is a folder, not a file',
      },
    ]);
  });

  test('a pipe, a device or an oversized file is a problem naming it, not a build that waits forever', async () => {
    const { execFileSync } = await import('node:child_process');
    const { symlink, truncate } = await import('node:fs/promises');
    const dir = await makeContentDir();
    await mkdir(path.join(dir, 'insights'));
    // Reading a pipe waits for a writer; this one has none.
    execFileSync('mkfifo', [path.join(dir, 'insights', 'faq.json')]);
    // A device that never ends.
    await symlink('/dev/zero', path.join(dir, 'insights', 'summary.md'));
    const big = await makeContentDir();
    await mkdir(path.join(big, 'insights'));
    await writeFile(path.join(big, 'insights', 'faq.json'), '[]');
    await truncate(path.join(big, 'insights', 'faq.json'), MAX_CONTENT_FILE_BYTES + 1);
    const notRegular = 'cannot be read: it is not a regular file (a device, socket or pipe)';
    expect(await problemsOf(dir)).toEqual([
      { file: shown(dir, 'insights/faq.json'), field: '', message: notRegular },
      { file: shown(dir, 'insights/summary.md'), field: '', message: notRegular },
    ]);
    expect(await problemsOf(big)).toEqual([
      {
        file: shown(big, 'insights/faq.json'),
        field: '',
        message: 'is 16.0 MiB, more than a content file may be (16 MiB)',
      },
    ]);
  });

  test('a symbolic link to a review is read; *.MD, a link to nothing and a link to a folder are listed as skipped', async () => {
    const { symlink } = await import('node:fs/promises');
    const dir = await makeContentDir();
    const real = await writeReview(dir, 'real');
    await mkdir(path.join(dir, 'elsewhere'));
    const target = await writeReview(
      dir,
      '../elsewhere/linked',
      makeFrontMatter(),
      'A review kept outside the folder.',
    );
    await symlink(target, path.join(dir, 'reviews', 'linked.md'));
    await symlink(path.join(dir, 'nowhere.md'), path.join(dir, 'reviews', 'dangling.md'));
    await symlink(path.join(dir, 'elsewhere'), path.join(dir, 'reviews', 'archive'));
    await writeFile(
      path.join(dir, 'reviews', 'shouting.MD'),
      await (await import('node:fs/promises')).readFile(real),
    );
    const content = await load(dir);
    expect(content.reviews.map((r) => r.id).sort()).toEqual(['linked', 'real']);
    expect(content.skipped).toEqual([
      {
        file: shown(dir, 'reviews/archive'),
        reason: 'a symbolic link to a folder, which is not followed: move its files into reviews/',
      },
      { file: shown(dir, 'reviews/dangling.md'), reason: 'a symbolic link to nothing' },
      {
        file: shown(dir, 'reviews/shouting.MD'),
        reason: 'a review file name ends in .md, in lower case',
      },
    ]);
  });
});

test('a date before the business was founded, or before 1900, is published with a warning', async () => {
  const dir = await makeContentDir(businessJson({ founded_year: 2009 }));
  await writeReview(dir, 'typo', makeFrontMatter({ date: '0202-05-01', author: 'A' }));
  await writeReview(dir, 'early', makeFrontMatter({ date: '2008-12-31', author: 'B' }));
  await writeReview(dir, 'fine', makeFrontMatter({ date: '2009-01-01', author: 'C' }));
  const content = await loadContent({ contentDir: dir, siteUrl: SITE_URL, today: '2026-11-27' });
  expect(content.reviews).toHaveLength(3);
  expect(content.warnings).toEqual([
    {
      file: shown(dir, 'reviews/early.md'),
      field: 'date',
      message:
        '2008-12-31 is before the business was founded (2009): a typo? It is published as written',
    },
    {
      file: shown(dir, 'reviews/typo.md'),
      field: 'date',
      message:
        '0202-05-01 is before the business was founded (2009): a typo? It is published as written',
    },
  ]);
  const unknown = await makeContentDir(businessJson({ founded_year: undefined }));
  await writeReview(unknown, 'typo', makeFrontMatter({ date: '0202-05-01' }));
  const without = await loadContent({
    contentDir: unknown,
    siteUrl: SITE_URL,
    today: '2026-11-27',
  });
  expect(without.warnings.filter((w) => w.field === 'date').map((w) => w.message)).toEqual([
    '0202-05-01 is before 1900: a typo? It is published as written',
  ]);
});

test('a date in the future, or a verification before the review, is published with a warning', async () => {
  const dir = await makeContentDir();
  await writeReview(dir, 'typo', makeFrontMatter({ date: '2052-05-01' }));
  await writeReview(
    dir,
    'early',
    makeFrontMatter({
      date: '2024-05-01',
      verified_on: '2024-04-01',
      reply: { date: '2026-11-28', text: 'Thanks!' },
    }),
  );
  const content = await loadContent({ contentDir: dir, siteUrl: SITE_URL, today: '2026-11-27' });
  expect(content.reviews.map((r) => r.id).sort()).toEqual(['early', 'typo']);
  expect(content.warnings).toEqual([
    {
      file: shown(dir, 'reviews/early.md'),
      field: 'verified_on',
      message: "2024-04-01 is before the review's date (2024-05-01)",
    },
    {
      file: shown(dir, 'reviews/typo.md'),
      field: 'date',
      message:
        "2052-05-01 is in the future (the build ran on 2026-11-27): a typo? It is published as written, and the newest review date sets the insights' 12-month window",
    },
  ]);
  // A reply dated the next day is no typo: the business's time zone may be a day ahead of UTC.
  const later = await loadContent({ contentDir: dir, siteUrl: SITE_URL, today: '2052-05-01' });
  expect(later.warnings.map((w) => w.field)).toEqual(['verified_on']);
});

test('a technician or service listed twice is published once', async () => {
  const dir = await makeContentDir();
  await writeReview(
    dir,
    'twice',
    makeFrontMatter({
      technicians: ['sam-lee', 'sam-lee'],
      services: ['leak-repair', 'leak-repair'],
    }),
  );
  const [review] = (await load(dir)).reviews;
  expect(review!.technicians).toEqual(['Sam Lee']);
  expect(review!.service_ids).toEqual(['leak-repair']);
});
