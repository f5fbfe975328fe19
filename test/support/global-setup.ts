// Builds the fixture content once per test run; integration and e2e tests read it via inject().
// A second build of the same fixture with one review added and one edited stands for "the next
// deploy" in the hub tests.
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { FIXTURE_CONTENT, ROOT, buildSite, distPath } from './build-site.ts';
import { startTestPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fixtureDist: string;
    changedFixtureDist: string;
    /** Admin URL of the test PostgreSQL server ('' where the project does not start one). */
    pgAdminUrl: string;
  }
}

async function writeChangedContent(target: string): Promise<void> {
  await rm(target, { recursive: true, force: true });
  await cp(FIXTURE_CONTENT, target, { recursive: true });
  await writeFile(
    path.join(target, 'reviews', '2024-07-01-added-review.md'),
    '---\nrating: 4\ndate: "2024-07-01"\nauthor: New R.\nsource: google\nverification: platform_verified\ntechnicians: [sam-lee]\nservices: [gutters]\n---\nSam fixed the gutters. Tidy and on time.\n',
  );
  const edited = path.join(target, 'reviews', '2024-05-01-same-day.md');
  await writeFile(
    edited,
    (await readFile(edited, 'utf8')).replace('Great value.', 'Great value, fair price.'),
  );
}

export default async function setup(project: TestProject): Promise<(() => void) | void> {
  const fixtureDist = distPath(`dist-fixture-${project.name}`);
  await buildSite({ contentDir: FIXTURE_CONTENT, distDir: fixtureDist });
  project.provide('fixtureDist', fixtureDist);
  const changedContent = path.join(ROOT, 'test-results', `content-changed-${project.name}`);
  const changedFixtureDist = distPath(`dist-fixture-changed-${project.name}`);
  if (project.name.startsWith('integration')) {
    await writeChangedContent(changedContent);
    await buildSite({ contentDir: changedContent, distDir: changedFixtureDist });
  }
  project.provide('changedFixtureDist', changedFixtureDist);
  if (project.name !== 'integration-pg') {
    project.provide('pgAdminUrl', '');
    return;
  }
  const postgres = await startTestPostgres();
  project.provide('pgAdminUrl', postgres.adminUrl);
  return () => postgres.stop();
}
