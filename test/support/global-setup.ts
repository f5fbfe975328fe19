// Builds the fixture content once per test run; integration and e2e tests read it via inject().
import type { TestProject } from 'vitest/node';
import { FIXTURE_CONTENT, buildSite, distPath } from './build-site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fixtureDist: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const fixtureDist = distPath(`dist-fixture-${project.name}`);
  await buildSite({ contentDir: FIXTURE_CONTENT, distDir: fixtureDist });
  project.provide('fixtureDist', fixtureDist);
}
