// What a build depends on besides the content: `npm start` rebuilds when any of these is newer than
// the built site, and the benchmark reuses an earlier build only when their bytes are unchanged.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Paths relative to the repository root; a directory stands for every file under it. */
export const BUILD_INPUTS = [
  'src',
  'scripts/build.ts',
  'scripts/build-site.ts',
  'astro.config.mjs',
  'package.json',
  'package-lock.json',
] as const;

/**
 * Every file of `target` (itself when it is a file), sorted; none when it does not exist. With
 * `directories`, the directories too (a removed file shows only in its directory's mtime).
 */
export function filesUnder(target: string, directories = false): string[] {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return [];
  }
  if (!stats.isDirectory()) return [target];
  const found = readdirSync(target, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() || (directories && entry.isDirectory()))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return (directories ? [target, ...found] : found).sort();
}

/** Every build input file (and directory, with `directories`), absolute, sorted. */
export function buildInputFiles(directories = false): string[] {
  return BUILD_INPUTS.flatMap((input) => filesUnder(path.join(root, input), directories)).sort();
}
