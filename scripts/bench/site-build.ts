// The benchmark's builds: generated content built into bench-work/dist-<N>, timed, and reused when
// asked to (BENCH_REUSE_BUILD) only if the content, SITE_URL and every build input are unchanged.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildInputFiles } from '../build-inputs.ts';
import type { ContentSet } from './generate.ts';
import { root, timedBuild, type BuildFigures } from './proc.ts';

/** Hash of the bytes of every build input (the list `npm start` checks too). */
export function codeHash(): string {
  const hash = createHash('sha256');
  for (const file of buildInputFiles()) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

/** The commit measured and whether the working tree differed from it (read-only git calls). */
export function codeVersion(): { commit?: string; changedFiles?: number; hash: string } {
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    return {
      commit: git(['rev-parse', 'HEAD']).trim(),
      changedFiles: git(['status', '--porcelain']).split('\n').filter(Boolean).length,
      hash: codeHash(),
    };
  } catch {
    return { hash: codeHash() };
  }
}

export type BuildReport = Omit<BuildFigures, 'log'> & { reused: boolean; output: string };

/** Builds `content` into `distDir` (or reuses an identical earlier build when `reuse`). */
export async function ensureBuild(options: {
  content: ContentSet;
  distDir: string;
  siteUrl: string;
  reuse: boolean;
  log: (message: string) => void;
}): Promise<BuildReport> {
  const { content, distDir, siteUrl, log } = options;
  const buildStamp = `${distDir}.bench.json`;
  const stamp = JSON.stringify({ content: content.stamp, siteUrl, code: codeHash() });
  const previous = existsSync(buildStamp)
    ? (JSON.parse(readFileSync(buildStamp, 'utf8')) as { stamp: string; build: BuildFigures })
    : undefined;
  if (options.reuse && previous?.stamp === stamp && existsSync(distDir)) {
    const { log: output, ...figures } = previous.build;
    log(
      `build: reused ${path.relative(root, distDir)} (built in ${previous.build.seconds.toFixed(1)} s)`,
    );
    return { ...figures, reused: true, output };
  }
  rmSync(buildStamp, { force: true });
  log(`build: node scripts/build.ts → ${path.relative(root, distDir)} …`);
  const build = await timedBuild({
    CONTENT_DIR: content.dir,
    DIST_DIR: distDir,
    SITE_URL: siteUrl,
  });
  if (build.exitCode !== 0)
    throw new Error(
      `build failed (exit ${build.exitCode}) after ${build.seconds.toFixed(0)} s at peak RSS ${build.peakRssMB.toFixed(0)} MB:\n${build.log.slice(-2000)}`,
    );
  writeFileSync(buildStamp, JSON.stringify({ stamp, build }));
  log(
    `build: ${build.seconds.toFixed(1)} s, peak RSS ${build.peakRssMB.toFixed(0)} MB (tree ${build.treePeakMB.toFixed(0)} MB; children: ${build.processes || 'none'})`,
  );
  const { log: output, ...figures } = build;
  return { ...figures, reused: false, output: output.slice(-4000) };
}
