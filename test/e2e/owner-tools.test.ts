// The owner's tools through the real commands in child processes, on a copy of the fixture
// content: import-reviews (Google and CSV exports), re-import, update in place, refusals that
// write nothing, new-review with flags, then validate-content and a build that publishes the
// result. The new-review prompts' validation is driven through @inquirer/testing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { input } from '@inquirer/prompts';
import { render } from '@inquirer/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../../src/content/new-review.ts';
import { FIXTURE_CONTENT, ROOT, distPath, runScript } from '../support/build-site.ts';

/** Terminal control sequences (colours, cursor moves), stripped to read the screen as text. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const GBP = path.join(ROOT, 'test/fixtures/import/gbp-page.json');
const CSV = path.join(ROOT, 'test/fixtures/import/export.csv');
let work: string;
let content: string;

const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  runScript(script, { CONTENT_DIR: content, ...env }, args);

async function snapshot(): Promise<Map<string, string>> {
  const dir = path.join(content, 'reviews');
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).sort())
    files.set(name, await readFile(path.join(dir, name), 'utf8'));
  return files;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'owner-tools-'));
  content = path.join(work, 'content');
  await cp(FIXTURE_CONTENT, content, { recursive: true });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('import-reviews', () => {
  test('--dry-run prints the plan and writes nothing', async () => {
    const before = await snapshot();
    const result = await run('scripts/import-reviews.ts', [
      '--dry-run',
      '--verification',
      'platform_verified',
      GBP,
      CSV,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /dry run: 5 new, 0 updated, 0 unchanged, 2 skipped; nothing written/,
    );
    expect(await snapshot()).toEqual(before);
  });

  test('imports Google and CSV exports as review files that validate and publish', async () => {
    const result = await run('scripts/import-reviews.ts', [
      '--verification',
      'platform_verified',
      GBP,
      CSV,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('5 new, 0 updated, 0 unchanged, 2 skipped');
    // Star-only reviews are skipped and listed.
    expect(result.stdout).toMatch(/skipped .*reviewId AbFvOqk-stars-only\): no text/);
    expect(result.stdout).toMatch(/skipped .*export\.csv › record 3: no text/);
    const files = await snapshot();
    // 2025-04-01T00:30:00Z is 31 March in the business's time zone (America/Los_Angeles).
    const rosa = files.get('2025-03-31-rosa-jimenez.md')!;
    expect(rosa).toContain('date: "2025-03-31"');
    expect(rosa).toContain('source_id: "AbFvOqk-late-evening"');
    expect(rosa).toContain('technicians: ["mike-alvarez", "sam-lee"]');
    expect(rosa).toContain(
      '"Spotless" cleanup, no nails, and the price matched the quote 👍\n\nWould hire again.',
    );
    expect(rosa).toContain('reply:\n  date: "2025-04-02"\n  text: "Thank you, Rosa!"');
    const anonymous = files.get('2025-05-10-a-google-user.md')!;
    expect(anonymous).toContain('author: "A Google user"');
    expect(anonymous).toContain(
      'Took three weeks to call back, <b>twice</b>. Leak fixed though, commas, and "quotes".',
    );
    const translated = files.get('2025-06-01-kenji-t.md')!;
    expect(translated).toContain('とても丁寧な作業員でした。屋根がきれいです。');
    expect(translated).not.toContain('Translated by Google');
    const csv = files.get('2025-02-03-obrien-pat.md')!;
    expect(csv).toContain('author: "O\'Brien, Pat"');
    expect(csv).toContain('Good gutters, fast crew.\n\nSecond paragraph with "quotes".');
    expect(csv).toContain('technicians: ["sam-lee"]');
    expect(files.get('2025-02-04-dana-k.md')).toContain('Big Mike fixed the leak 🎉');

    const valid = await run('scripts/validate-content.ts', []);
    expect(valid.code, valid.stderr).toBe(0);
    const dist = distPath('owner-tools');
    const build = await runScript('scripts/build.ts', {
      CONTENT_DIR: content,
      DIST_DIR: dist,
      SITE_URL: 'https://reviews.owner.example',
    });
    expect(build.code, build.stderr).toBe(0);
    const dataset = JSON.parse(await readFile(path.join(dist, 'client/reviews.json'), 'utf8')) as {
      reviews: { id: string; text: string }[];
    };
    const ids = dataset.reviews.map((review) => review.id);
    for (const id of [
      '2025-03-31-rosa-jimenez',
      '2025-05-10-a-google-user',
      '2025-06-01-kenji-t',
      '2025-02-03-obrien-pat',
      '2025-02-04-dana-k',
    ])
      expect(ids).toContain(id);
    expect(JSON.stringify(dataset)).not.toContain('AbFvOqk');
  }, 180_000);

  test('importing again changes no file', async () => {
    const before = await snapshot();
    const result = await run('scripts/import-reviews.ts', [
      '--verification',
      'platform_verified',
      GBP,
      CSV,
    ]);
    expect(result.stdout).toContain('0 new, 0 updated, 5 unchanged, 2 skipped');
    expect(await snapshot()).toEqual(before);
  });

  test("a review edited on the platform is updated in place, keeping the owner's fields and file name", async () => {
    const file = path.join(content, 'reviews/2025-05-10-a-google-user.md');
    const owned = (await readFile(file, 'utf8')).replace(
      'services: []',
      'services: ["leak-repair"]\nservice_area: "eugene"\nprivate:\n  job: "J-77"',
    );
    await writeFile(file, owned);
    const page = JSON.parse(await readFile(GBP, 'utf8')) as { reviews: Record<string, unknown>[] };
    page.reviews[1] = {
      ...page.reviews[1],
      starRating: 'FOUR',
      comment: 'Update: they came back and fixed everything.',
      updateTime: '2025-07-01T20:00:00Z',
    };
    const edited = path.join(work, 'edited.json');
    await writeFile(edited, JSON.stringify(page));
    const result = await run('scripts/import-reviews.ts', [edited]);
    expect(result.stdout, result.stdout).toContain('0 new, 1 updated, 2 unchanged, 1 skipped');
    const updated = await readFile(file, 'utf8');
    expect(updated).toContain('rating: 4');
    expect(updated).toContain('updated: "2025-07-01"');
    expect(updated).toContain('Update: they came back and fixed everything.');
    expect(updated).toContain('services: ["leak-repair"]');
    expect(updated).toContain('job: J-77');
    expect(updated).toContain('service_area: "eugene"');
    expect((await run('scripts/validate-content.ts', [])).code).toBe(0);
  });

  test('bad JSON, and a bad CSV row among good ones, write nothing and name file, record and field', async () => {
    const before = await snapshot();
    const badJson = path.join(work, 'bad.json');
    await writeFile(badJson, '{"reviews": [');
    const json = await run('scripts/import-reviews.ts', [badJson]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/bad\.json › file: not JSON/);
    const badCsv = path.join(work, 'bad.csv');
    await writeFile(
      badCsv,
      'date,rating,author,text,source_id,verification\n2025-01-02,5,Ok Person,Fine,c-1,manual_check\n2025-02-30,9,Bad Row,Text,c-2,manual_check\n',
    );
    const csv = await run('scripts/import-reviews.ts', [badCsv]);
    expect(csv.code).toBe(1);
    expect(csv.stderr).toMatch(/bad\.csv › record 2 › date: expected YYYY-MM-DD/);
    expect(csv.stderr).toMatch(/bad\.csv › record 2 › rating: expected a whole number from 1 to 5/);
    expect(csv.stderr).toContain('nothing written');
    expect(await snapshot()).toEqual(before);
  });

  test('an export saved as Windows-1252 or UTF-16 is refused, naming the encoding to use', async () => {
    const before = await snapshot();
    const latin = path.join(work, 'excel.csv');
    await writeFile(
      latin,
      Buffer.from(
        'date,rating,author,text\r\n2024-05-01,5,Jos\xe9 N\xfa\xf1ez,Caf\xe9 was \x93great\x94\r\n',
        'latin1',
      ),
    );
    const utf16 = path.join(work, 'page.json');
    await writeFile(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"reviews": []}', 'utf16le')]),
    );
    const result = await run('scripts/import-reviews.ts', [
      '--verification',
      'manual_check',
      latin,
      utf16,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /excel\.csv › file: is not UTF-8 text \(saved as Latin-1 or Windows-1252, perhaps\): save it as UTF-8/,
    );
    expect(result.stderr).toMatch(/page\.json › file: is UTF-16 text: save it as UTF-8/);
    expect(await snapshot()).toEqual(before);
  });

  test('a write that fails part-way leaves no temporary files and says what was written', async () => {
    const before = await snapshot();
    const rows = path.join(work, 'three.csv');
    await writeFile(
      rows,
      'date,rating,author,text\n2024-05-03,5,Ann Lee,First.\n2024-05-04,5,Obrien Quoted,Second.\n2024-05-05,5,Zed Q,Third.\n',
    );
    // A folder where the second file would go: its rename fails after the first one's.
    const blocker = path.join(content, 'reviews', '2024-05-04-obrien-quoted.md');
    await mkdir(blocker);
    const result = await run('scripts/import-reviews.ts', ['--verification', 'manual_check', rows]);
    await rm(blocker, { recursive: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/import failed part-way: .*2024-05-04-obrien-quoted\.md/);
    expect(result.stderr).toMatch(/written \(1\): .*2024-05-03-ann-lee\.md/);
    expect(result.stderr).toMatch(/not written \(2\): /);
    const after = await snapshot();
    expect([...after.keys()].filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect([...after.keys()].filter((name) => !before.has(name))).toEqual([
      '2024-05-03-ann-lee.md',
    ]);
    await rm(path.join(content, 'reviews', '2024-05-03-ann-lee.md'));
  });
});

describe('new-review', () => {
  test('with every field as a flag it asks nothing and writes one valid file', async () => {
    const result = await run('scripts/new-review.ts', [
      '--rating',
      '4',
      '--date',
      '2025-08-09',
      '--author',
      'Jo N.',
      '--text',
      'Solid repair, "quick" too.',
      '--source',
      'direct',
      '--verification',
      'job_record_match',
      '--technician',
      'sam-lee',
      '--service',
      'gutters',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/wrote .*2025-08-09-jo-n\.md/);
    expect(result.stdout).toContain('git add');
    const file = await readFile(path.join(content, 'reviews/2025-08-09-jo-n.md'), 'utf8');
    expect(file).toContain('technicians: ["sam-lee"]');
    expect((await run('scripts/validate-content.ts', [])).code).toBe(0);
  });

  test('the same review again, or a text over the limit, is refused and nothing is written', async () => {
    const before = await snapshot();
    const flags = (text: string) => [
      '--rating',
      '4',
      '--date',
      '2025-08-09',
      '--author',
      'Jo N.',
      '--text',
      text,
      '--source',
      'google',
      '--verification',
      'manual_check',
    ];
    const again = await run('scripts/new-review.ts', flags('Solid repair, "quick" too.'));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'the same review (date, author, rating and text) is already 2025-08-09-jo-n.md: it is published once',
    );
    const long = await run('scripts/new-review.ts', flags('word '.repeat(5000)));
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(
      /text: expected the review text, at most 20,000 characters \(is 24,999 characters\)/,
    );
    expect(await snapshot()).toEqual(before);
  });

  test('--help prints the usage and exits 0, in every owner command', async () => {
    for (const script of [
      'scripts/new-review.ts',
      'scripts/import-reviews.ts',
      'scripts/validate-content.ts',
    ]) {
      const result = await run(script, ['--help']);
      expect(result.code, script).toBe(0);
      expect(result.stdout, script).toMatch(/^usage: npm run /);
    }
    const stray = await run('scripts/validate-content.ts', ['content/']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/unexpected argument "content\/": validate-content takes none/);
  });

  test('bad flags are refused, each naming its field, and nothing is written', async () => {
    const before = await snapshot();
    const result = await run('scripts/new-review.ts', [
      '--rating',
      '0',
      '--date',
      '2025-02-30',
      '--author',
      'X',
      '--text',
      'Y',
      '--source',
      'myspace',
      '--verification',
      'trust-me',
      '--service',
      'chimneys',
    ]);
    expect(result.code).toBe(1);
    for (const field of ['rating', 'date', 'source', 'verification', 'service'])
      expect(result.stderr).toMatch(new RegExp(`^${field}: `, 'm'));
    expect(await snapshot()).toEqual(before);
  });

  test('an unknown flag, or one without its value, is one line and the usage (exit 2), no stack trace', async () => {
    for (const [script, args] of [
      ['scripts/new-review.ts', ['--rating', '5', '--bogus', 'x']],
      ['scripts/new-review.ts', ['--rating', '5', '--technician']],
      ['scripts/import-reviews.ts', ['--nope', CSV]],
      ['scripts/aspects.ts', ['--bogus']],
      ['scripts/eval-aspects.ts', ['--bogus']],
    ] as const) {
      const result = await run(script, [...args]);
      expect(result.code, `${script} ${args.join(' ')}`).toBe(2);
      expect(result.stderr).toMatch(/^usage: npm run /m);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  test('a new business without reviews/ yet gets the folder; a bad business.json is named, not dumped', async () => {
    const fresh = await mkdtemp(path.join(os.tmpdir(), 'owner-tools-fresh-'));
    try {
      await cp(path.join(content, 'business.json'), path.join(fresh, 'business.json'));
      const flags = [
        '--rating',
        '5',
        '--date',
        '2024-05-05',
        '--author',
        'Zoë N.',
        '--text',
        'Dry at last.',
        '--source',
        'google',
        '--verification',
        'manual_check',
      ];
      const written = await runScript('scripts/new-review.ts', { CONTENT_DIR: fresh }, flags);
      expect(written.code, written.stderr).toBe(0);
      expect(await readdir(path.join(fresh, 'reviews'))).toEqual(['2024-05-05-zoe-n.md']);
      await writeFile(path.join(fresh, 'business.json'), '{"name": "x"');
      for (const [script, args] of [
        ['scripts/new-review.ts', flags],
        ['scripts/import-reviews.ts', ['--verification', 'manual_check', CSV]],
      ] as const) {
        const refused = await runScript(script, { CONTENT_DIR: fresh }, [...args]);
        expect(refused.code, script).toBe(1);
        expect(refused.stderr).toMatch(/business\.json: is not valid JSON/);
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  test('without a terminal and without the required flags it says which are missing', async () => {
    const result = await run('scripts/new-review.ts', ['--rating', '5']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--date: required');
  });

  test('in a terminal it asks for each field, refuses a bad one as you type, and writes the file', async () => {
    if (!existsSync('/usr/bin/script')) throw new Error('/usr/bin/script (util-linux) is missing');
    // A pseudo-terminal from script(1), so the prompts run exactly as for a person.
    const child = spawn(
      '/usr/bin/script',
      ['-qfec', `"${process.execPath}" scripts/new-review.ts`, '/dev/null'],
      {
        cwd: ROOT,
        env: { ...process.env, CONTENT_DIR: content, TERM: 'xterm' },
      },
    );
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8').replace(ANSI_ESCAPE, '');
    });
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 20_000;
      while (!screen.includes(text)) {
        if (Date.now() > deadline)
          throw new Error(`no "${text}" on screen:\n${screen.slice(-800)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const answer = async (prompt: string, keys: string) => {
      await waitFor(prompt);
      screen = '';
      child.stdin.write(keys);
    };
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await answer('Stars (1-5)', '7\r');
    await waitFor('a whole number of stars from 1 to 5');
    child.stdin.write('\x7f4\r');
    await answer('Date (YYYY-MM-DD)', '\x15'.repeat(1) + '2025-09-01\r');
    await answer('Author as shown', 'Pty Tester\r');
    await answer('Location (optional)', '\r');
    await answer('Title (optional)', '\r');
    await answer('Review text', 'Solid work on the gutters.\r');
    await answer('Where was it written?', '\r');
    await answer('Link to it (optional)', '\r');
    await answer('How was it verified?', '\r');
    await answer('Technicians (space to pick)', ' \r');
    await answer('Services (space to pick)', '\r');
    await answer('Service area', '\r');
    await waitFor('wrote ');
    await exited;
    const file = await readFile(path.join(content, 'reviews/2025-09-01-pty-tester.md'), 'utf8');
    expect(file).toContain('rating: 4');
    expect(file).toContain('author: "Pty Tester"');
    expect(file).toContain('technicians: ["mike-alvarez"]');
    expect(file).toContain('Solid work on the gutters.');
    expect((await run('scripts/validate-content.ts', [])).code).toBe(0);
  }, 60_000);

  test('the prompts validate as you type', async () => {
    const { answer, events, getScreen } = await render(input, {
      message: 'Stars (1-5)',
      validate: CHECKS.rating,
    });
    events.type('7');
    events.keypress('enter');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(getScreen()).toContain('a whole number of stars from 1 to 5');
    events.keypress('backspace');
    events.type('4');
    events.keypress('enter');
    await expect(answer).resolves.toBe('4');
    const date = await render(input, { message: 'Date', validate: CHECKS.date });
    date.events.type('2025-02-30');
    date.events.keypress('enter');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(date.getScreen()).toContain('a real date as YYYY-MM-DD');
    // Answered, so that no prompt is left open when the test process exits (inquirer would then
    // reject it, an unhandled rejection).
    for (let i = 0; i < 10; i++) date.events.keypress('backspace');
    date.events.type('2025-02-28');
    date.events.keypress('enter');
    await expect(date.answer).resolves.toBe('2025-02-28');
  });
});
