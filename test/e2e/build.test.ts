// End-to-end tests of `npm run build` and `npm run validate-content`: the real scripts in child
// processes, checked on the bytes they write (docs/decisions.md#content and #published-records). Builds are few and sequential.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  FIXTURE_CONTENT,
  FIXTURE_SITE_URL,
  ROOT,
  buildSite,
  distPath,
  runBuild,
  runScript,
} from '../support/build-site.ts';
import { realPathOf } from '../../src/build/dist-dir.ts';

const SAMPLE_CONTENT = path.join(ROOT, 'content');
const MOVED_SITE_URL = 'https://moved.example.org';
const FIXTURE_PRIVATE_VALUES = ['JOB-PRIVATE-0001', 'secret-customer@example.com'];
const FIXTURE_UNVERIFIED_ID = '2024-06-01-unverified';

/** Every file under `dir`, as sorted paths relative to it with `/` separators. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const tree = new Map<string, Buffer>();
  for (const file of await listFiles(dir)) tree.set(file, await readFile(path.join(dir, file)));
  return tree;
}

/** `needle in file` for every needle found in any file under `dir` (expected: none). */
async function findInFiles(dir: string, needles: readonly string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const [file, bytes] of await readTree(dir)) {
    const text = bytes.toString('utf8');
    for (const needle of needles) if (text.includes(needle)) hits.push(`${needle} in ${file}`);
  }
  return hits;
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Leaf values (strings, numbers) of every review's `private` front matter in `contentDir`. */
async function privateValues(contentDir: string): Promise<string[]> {
  const reviewsDir = path.join(contentDir, 'reviews');
  const values: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const file of await listFiles(reviewsDir)) {
    if (!file.endsWith('.md')) continue;
    const source = await readFile(path.join(reviewsDir, file), 'utf8');
    const frontMatter = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? '';
    const data = yaml.load(frontMatter, { schema: yaml.CORE_SCHEMA }) as { private?: unknown };
    collect(data.private);
  }
  return values;
}

interface Manifest {
  last_modified: string;
  files: Record<string, { file: string; etag: string; size: number; type: string }>;
}

interface ReviewsJson {
  reviews: { id: string; url: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

interface JsonFeed {
  home_page_url: string;
  feed_url: string;
  items: { id: string; url: string }[];
}

// This file's own fixture build, not the shared one from the global setup (inject('fixtureDist')):
// another test run may rebuild that directory while these tests read or compare it.
const fixtureDist = distPath('build-test-fixture');
const tempDirs: string[] = [];

/** A copy of the fixture content in test-results/ with one review pointing at a typo'd technician. */
async function makeBrokenContent(): Promise<{ dir: string; brokenFile: string }> {
  const dir = await mkdtemp(path.join(ROOT, 'test-results', 'build-test-broken-'));
  tempDirs.push(dir);
  await cp(FIXTURE_CONTENT, dir, { recursive: true });
  const brokenFile = path.join(dir, 'reviews', '2024-05-01-new-roof.md');
  const source = await readFile(brokenFile, 'utf8');
  expect(source).toContain('technicians: [mike-alvarez]');
  await writeFile(
    brokenFile,
    source.replace('technicians: [mike-alvarez]', 'technicians: [mike-alvarz]'),
  );
  return { dir, brokenFile: path.relative(ROOT, brokenFile) };
}

beforeAll(async () => {
  await buildSite({ contentDir: FIXTURE_CONTENT, distDir: fixtureDist, siteUrl: FIXTURE_SITE_URL });
});

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a build of the fixture content', () => {
  test('is byte-identical to another build of the same content, ETags included', async () => {
    const repeatDist = distPath('build-test-repeat');
    const result = await runBuild({
      CONTENT_DIR: FIXTURE_CONTENT,
      DIST_DIR: repeatDist,
      SITE_URL: FIXTURE_SITE_URL,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `skipped test/fixtures/content/reviews/${FIXTURE_UNVERIFIED_ID}.md`,
    );

    const first = await readTree(path.join(fixtureDist, 'client'));
    const second = await readTree(path.join(repeatDist, 'client'));
    expect([...second.keys()]).toEqual([...first.keys()]);
    expect([...first.keys()]).toEqual(
      expect.arrayContaining([
        'reviews.json',
        'insights.json',
        'api/feed.json',
        'feed.xml',
        'index.html',
        'reviews/2024-05-01-new-roof/index.html',
      ]),
    );
    const differing = [...first].filter(([file, bytes]) => !bytes.equals(second.get(file)!));
    expect(differing.map(([file]) => file)).toEqual([]);

    const firstManifest = await readJson<Manifest>(path.join(fixtureDist, 'site-manifest.json'));
    const secondManifest = await readJson<Manifest>(path.join(repeatDist, 'site-manifest.json'));
    expect(Object.keys(firstManifest.files)).toHaveLength(first.size);
    expect(secondManifest.files).toEqual(firstManifest.files);
    expect(secondManifest.last_modified).toBe(firstManifest.last_modified);
  });

  test('publishes no private front matter value in any output file', async () => {
    const hits = await findInFiles(fixtureDist, FIXTURE_PRIVATE_VALUES);
    expect(hits).toEqual([]);
    // The review that carries them is published, so the scan looked at the right content.
    expect(
      await findInFiles(fixtureDist, ['2024-05-01-new-roof', 'Not a single nail']),
    ).not.toEqual([]);
  });

  test('publishes neither the id nor the text of the unverified review', async () => {
    const hits = await findInFiles(fixtureDist, [
      FIXTURE_UNVERIFIED_ID,
      'UNVERIFIED-FIXTURE',
      'Not Verified',
    ]);
    expect(hits).toEqual([]);
    expect(existsSync(path.join(fixtureDist, 'client/reviews', FIXTURE_UNVERIFIED_ID))).toBe(false);
  });

  test('validate-content exits 0 and lists the unverified review as skipped', async () => {
    const result = await runScript('scripts/validate-content.ts', {
      CONTENT_DIR: FIXTURE_CONTENT,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `skipped test/fixtures/content/reviews/${FIXTURE_UNVERIFIED_ID}.md: no verification: unverified reviews are not published`,
    );
    expect(result.stdout).toContain('content is valid: 6 published reviews, 1 skipped');
    expect(result.stderr).toBe('');
  });

  test('moving SITE_URL changes the URLs in reviews.json but not the feed item ids', async () => {
    const movedDist = distPath('build-test-moved');
    await buildSite({ contentDir: FIXTURE_CONTENT, distDir: movedDist, siteUrl: MOVED_SITE_URL });

    const before = await readJson<ReviewsJson>(path.join(fixtureDist, 'client/reviews.json'));
    const after = await readJson<ReviewsJson>(path.join(movedDist, 'client/reviews.json'));
    expect(after.reviews.map((review) => review.url)).toEqual(
      before.reviews.map((review) => `${MOVED_SITE_URL}/reviews/${review.id}/`),
    );
    // Nothing else in the records depends on where the site lives.
    const withoutUrl = (dataset: ReviewsJson) =>
      dataset.reviews.map(({ url: _url, ...rest }) => rest);
    expect(withoutUrl(after)).toEqual(withoutUrl(before));

    const feedBefore = await readJson<JsonFeed>(path.join(fixtureDist, 'client/api/feed.json'));
    const feedAfter = await readJson<JsonFeed>(path.join(movedDist, 'client/api/feed.json'));
    expect(feedAfter.feed_url).toBe(`${MOVED_SITE_URL}/api/feed.json`);
    expect(feedAfter.items.map((item) => item.url)).not.toEqual(
      feedBefore.items.map((item) => item.url),
    );
    const ids = feedAfter.items.map((item) => item.id);
    expect(ids).toEqual(feedBefore.items.map((item) => item.id));
    expect(ids).toHaveLength(6);
    for (const id of ids) {
      expect(id).toMatch(/^tag:/);
      expect(id).not.toContain('moved.example.org');
      expect(id).not.toContain('reviews.fixture.example');
    }

    const atomIds = async (dist: string) =>
      [
        ...(await readFile(path.join(dist, 'client/feed.xml'), 'utf8')).matchAll(
          /<id>([^<]*)<\/id>/g,
        ),
      ].map((match) => match[1]);
    const atomAfter = await atomIds(movedDist);
    expect(atomAfter).toEqual(await atomIds(fixtureDist));
    expect(atomAfter).toEqual(expect.arrayContaining(ids));
  });
});

describe('a build of the sample content in content/', () => {
  const sampleDist = distPath('build-test-sample');

  beforeAll(async () => {
    await buildSite({ contentDir: SAMPLE_CONTENT, distDir: sampleDist });
  });

  test('publishes no private front matter value in any output file', async () => {
    // Values under 6 characters (a bare number, "yes") would match unrelated bytes.
    const secrets = (await privateValues(SAMPLE_CONTENT)).filter((value) => value.length >= 6);
    expect(secrets.filter((secret) => secret.startsWith('JOB-PRIVATE-')).length).toBeGreaterThan(
      10,
    );
    // Each value as written and as JSON and HTML would escape it.
    const forms = new Set(
      secrets.flatMap((secret) => [
        secret,
        JSON.stringify(secret).slice(1, -1),
        secret
          .replaceAll('&', '&amp;')
          .replaceAll('<', '&lt;')
          .replaceAll('>', '&gt;')
          .replaceAll('"', '&quot;'),
      ]),
    );
    expect(await findInFiles(sampleDist, [...forms])).toEqual([]);
  });

  test('publishes at least 140 reviews and nothing of the 4 unverified ones', async () => {
    const dataset = await readJson<ReviewsJson>(path.join(sampleDist, 'client/reviews.json'));
    expect(dataset.reviews.length).toBeGreaterThanOrEqual(140);
    const unverified = (await listFiles(path.join(SAMPLE_CONTENT, 'reviews')))
      .filter((file) => file.includes('unverified'))
      .map((file) => path.basename(file, '.md'));
    expect(unverified).toHaveLength(4);
    expect(await findInFiles(sampleDist, [...unverified, 'UNVERIFIED-SAMPLE'])).toEqual([]);
  });
});

describe('bad content', () => {
  test('stops the build naming file, field and known ids, and keeps the existing dist', async () => {
    const { dir, brokenFile } = await makeBrokenContent();
    const guardDist = distPath('build-test-guard');
    await rm(guardDist, { recursive: true, force: true });
    await cp(fixtureDist, guardDist, { recursive: true });
    const good = await readTree(guardDist);

    const result = await runBuild({
      CONTENT_DIR: dir,
      DIST_DIR: guardDist,
      SITE_URL: FIXTURE_SITE_URL,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${brokenFile} › technicians.0: unknown technician id "mike-alvarz" (did you mean "mike-alvarez"?); known ids: mike-alvarez, sam-lee`,
    );
    expect(result.stdout).not.toMatch(/^built /m);

    // Validation runs before DIST_DIR is cleared: the previous good build is still served whole.
    const after = await readTree(guardDist);
    expect([...after.keys()]).toEqual([...good.keys()]);
    const changed = [...good].filter(([file, bytes]) => !bytes.equals(after.get(file)!));
    expect(changed.map(([file]) => file)).toEqual([]);
  });

  test('creates no dist directory when there was none', async () => {
    const { dir } = await makeBrokenContent();
    const freshDist = distPath('build-test-fresh');
    await rm(freshDist, { recursive: true, force: true });
    const result = await runBuild({ CONTENT_DIR: dir, DIST_DIR: freshDist });
    expect(result.code).toBe(1);
    expect(existsSync(freshDist)).toBe(false);
  });

  test('validate-content exits 1 with the message the build stops with', async () => {
    const { dir, brokenFile } = await makeBrokenContent();
    const validate = await runScript('scripts/validate-content.ts', { CONTENT_DIR: dir });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toBe('');
    expect(validate.stderr.trim()).toBe(
      `1 content problem:\n  ${brokenFile} › technicians.0: unknown technician id "mike-alvarz" (did you mean "mike-alvarez"?); known ids: mike-alvarez, sam-lee`,
    );

    const build = await runBuild({ CONTENT_DIR: dir, DIST_DIR: distPath('build-test-fresh') });
    expect(build.code).toBe(1);
    expect(build.stderr.trim()).toBe(`Build stopped. ${validate.stderr.trim()}`);
  });

  test('a DIST_DIR outside the project stops the build at once, naming it', async () => {
    const outside = path.join(tmpdir(), `dist-outside-${process.pid}`);
    const result = await runBuild({ CONTENT_DIR: FIXTURE_CONTENT, DIST_DIR: outside });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Build stopped. DIST_DIR: ${await realPathOf(outside)} lies outside the project (${await realPathOf(ROOT)}), where the built site's modules cannot load their packages; choose a directory inside it, such as dist`,
    );
    expect(result.stdout).not.toMatch(/^built /m);
    expect(existsSync(outside)).toBe(false);
  });

  test('a DIST_DIR that holds anything but an earlier build is left alone', async () => {
    const dir = distPath('build-test-not-a-build');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'notes.txt'), 'keep me');
    const result = await runBuild({ CONTENT_DIR: FIXTURE_CONTENT, DIST_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Build stopped. DIST_DIR: ${await realPathOf(dir)} holds files but no earlier build`,
    );
    expect(await readFile(path.join(dir, 'notes.txt'), 'utf8')).toBe('keep me');
  });
});

test('a business with one review is told of it in the singular', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'one-review-'));
  await cp(FIXTURE_CONTENT, dir, { recursive: true });
  for (const file of await readdir(path.join(dir, 'reviews')))
    if (file !== '2024-05-01-new-roof.md') await rm(path.join(dir, 'reviews', file));
  const dist = distPath('build-test-one-review');
  await rm(dist, { recursive: true, force: true });
  const result = await runBuild({ CONTENT_DIR: dir, DIST_DIR: dist, SITE_URL: FIXTURE_SITE_URL });
  await rm(dir, { recursive: true, force: true });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^built 1 review \(0 skipped\)/m);
  const home = await readFile(path.join(dist, 'client', 'index.html'), 'utf8');
  expect(home).toContain('All 1 verified review.');
  expect(home).not.toMatch(/newest of|1 verified reviews/);
  const llms = await readFile(path.join(dist, 'client', 'llms.txt'), 'utf8');
  expect(llms).toContain('the 1 verified customer review of');
}, 300_000);
