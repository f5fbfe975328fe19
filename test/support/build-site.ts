// Builds content into a dist directory under test-results/ with the real build script, in a child
// process (Astro stays out of the test runner's process). Used by the global setup and e2e tests.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_CONTENT = path.join(ROOT, 'test/fixtures/content');
export const FIXTURE_SITE_URL = 'https://reviews.fixture.example';

export interface BuildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a project script (path from the root) in a child process and collects its output. */
export function runScript(
  script: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<BuildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runBuild(env: Record<string, string>): Promise<BuildResult> {
  return runScript('scripts/build.ts', env);
}

/** Builds and throws with the build's output when it fails. */
export async function buildSite(options: {
  contentDir: string;
  distDir: string;
  siteUrl?: string;
}): Promise<void> {
  const result = await runBuild({
    CONTENT_DIR: options.contentDir,
    DIST_DIR: options.distDir,
    SITE_URL: options.siteUrl ?? FIXTURE_SITE_URL,
  });
  if (result.code !== 0)
    throw new Error(`build of ${options.contentDir} failed:\n${result.stdout}\n${result.stderr}`);
}

export function distPath(name: string): string {
  return path.join(ROOT, 'test-results', name);
}
