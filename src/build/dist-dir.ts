// Where a build may write. It replaces DIST_DIR whole, and the built site's modules load their
// packages from the project's node_modules, so DIST_DIR must lie inside the project, must not be the
// project, overlap the content, or hold anything but an earlier build.
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isMissing } from '../content/read-content.ts';
import { MANIFEST_FILE } from './manifest.ts';

function isInside(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * Why the build may not write to `distDir` (absolute paths, as is `root`), or null when it may.
 * `entries` are the names in `distDir` (none when it does not exist).
 */
export function distDirProblem(
  root: string,
  distDir: string,
  contentDir: string,
  entries: readonly string[] = [],
): string | null {
  if (!isInside(distDir, root))
    return `${distDir} lies outside the project (${root}), where the built site's modules cannot load their packages; choose a directory inside it, such as dist`;
  if (path.relative(root, distDir) === '')
    return `${distDir} is the project itself, which the build would delete; choose a directory inside it, such as dist`;
  if (path.relative(contentDir, distDir) === '')
    return `${distDir} is the content directory, which the build would delete; choose a directory apart from it, such as dist`;
  if (isInside(contentDir, distDir))
    return `${distDir} holds the content (${contentDir}), which the build would delete; choose a directory apart from it, such as dist`;
  if (isInside(contentDir, `${distDir}.staging`))
    return `${distDir}.staging holds the content (${contentDir}), and the build writes there first; choose a directory apart from it, such as dist`;
  if (isInside(distDir, contentDir))
    return `${distDir} lies inside the content (${contentDir}), which the build would delete part of; choose a directory apart from it, such as dist`;
  if (entries.length > 0 && !entries.includes(MANIFEST_FILE))
    return `${distDir} holds files but no earlier build (no ${MANIFEST_FILE}), and the build replaces it whole; choose an empty or new directory, or remove it first`;
  return null;
}

/** The names in `dir`, none when it does not exist. */
export async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/**
 * `file` (absolute) with symbolic links resolved as far as it exists, so that paths given through
 * a link compare as the directories they name.
 */
export async function realPathOf(file: string): Promise<string> {
  const rest: string[] = [];
  let at = file;
  for (;;) {
    try {
      return path.join(await realpath(at), ...rest);
    } catch (error) {
      const parent = path.dirname(at);
      if (!isMissing(error) || parent === at) throw error;
      rest.unshift(path.basename(at));
      at = parent;
    }
  }
}
