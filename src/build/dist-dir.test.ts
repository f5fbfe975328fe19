import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { distDirProblem, realPathOf } from './dist-dir.ts';

const root = path.resolve('/srv/reviews');
const content = path.join(root, 'content');
const at = (...parts: string[]) => path.join(root, ...parts);

test('a build may write to a directory inside the project apart from the content', () => {
  for (const dist of [at('dist'), at('build', 'site'), at('..dist'), at('content-dist')])
    expect(distDirProblem(root, dist, content)).toBeNull();
  // Content elsewhere does not matter, only where the build writes.
  expect(distDirProblem(root, at('dist'), path.resolve('/data/content'))).toBeNull();
});

test('a build may not write outside the project, to the project, or over the content', () => {
  expect(distDirProblem(root, path.resolve('/tmp/dist'), content)).toMatch(
    /^.*dist lies outside the project \(.*reviews\)/,
  );
  expect(distDirProblem(root, path.resolve('/srv/reviews-dist'), content)).toContain(
    'lies outside the project',
  );
  expect(distDirProblem(root, path.resolve('/srv'), content)).toContain('lies outside the project');
  expect(distDirProblem(root, root, content)).toContain('is the project itself');
  expect(distDirProblem(root, content, content)).toContain('is the content directory');
  expect(distDirProblem(root, at('content', 'reviews'), content)).toContain(
    `lies inside the content (${content})`,
  );
  expect(distDirProblem(root, at('reviews'), root)).toContain(`lies inside the content (${root})`);
  expect(distDirProblem(root, at('x'), at('x.staging', 'content'))).toContain(
    'x.staging holds the content',
  );
  expect(distDirProblem(root, at('data'), at('data', 'content'))).toContain(
    `holds the content (${at('data', 'content')})`,
  );
  expect(distDirProblem(root, at('site'), at('site', 'content'))).toContain('holds the content');
});

test('a build replaces only an empty directory or an earlier build', () => {
  expect(distDirProblem(root, at('dist'), content, [])).toBeNull();
  expect(distDirProblem(root, at('dist'), content, ['client', 'site-manifest.json'])).toBeNull();
  expect(distDirProblem(root, at('src'), content, ['index.ts', 'http'])).toBe(
    `${at('src')} holds files but no earlier build (no site-manifest.json), and the build replaces it whole; choose an empty or new directory, or remove it first`,
  );
});

test('paths through a symbolic link resolve to what it names, as far as they exist', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'dist-dir-'));
  try {
    const project = path.join(dir, 'project');
    await mkdir(path.join(project, 'content'), { recursive: true });
    await symlink(project, path.join(dir, 'link'));
    const real = await realpath(project);
    expect(await realPathOf(path.join(dir, 'link', 'dist', 'new'))).toBe(
      path.join(real, 'dist', 'new'),
    );
    expect(await realPathOf(path.join(dir, 'link', 'content'))).toBe(path.join(real, 'content'));
    // A DIST_DIR named through the link lies inside the project it names.
    expect(
      distDirProblem(
        real,
        await realPathOf(path.join(dir, 'link', 'dist')),
        await realPathOf(path.join(project, 'content')),
      ),
    ).toBeNull();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
