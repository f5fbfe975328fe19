// Where a build may write. It replaces DIST_DIR whole, and the built site's modules load their
// packages from the project's node_modules, so DIST_DIR must lie inside the project, and be neither
// the project itself nor a directory that holds the content.
import path from 'node:path';

function isInside(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Why the build may not write to `distDir` (absolute paths), or null when it may. */
export function distDirProblem(root: string, distDir: string, contentDir: string): string | null {
  if (!isInside(distDir, root))
    return `${distDir} lies outside the project (${root}), where the built site's modules cannot load their packages; choose a directory inside it, such as dist`;
  if (path.relative(root, distDir) === '')
    return `${distDir} is the project itself, which the build would delete; choose a directory inside it, such as dist`;
  if (isInside(contentDir, distDir))
    return `${distDir} holds the content (${contentDir}), which the build would delete; choose a directory apart from it, such as dist`;
  return null;
}
