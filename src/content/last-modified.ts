// When the published content last changed: the last commit touching CONTENT_DIR when the tree is
// clean there, else the newest file modification time (uncommitted edits are newer than any commit).
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function gitTime(contentDir: string): Promise<Date | undefined> {
  try {
    const cwd = path.resolve(contentDir);
    const status = await run('git', ['status', '--porcelain', '--', '.'], { cwd });
    if (status.stdout.trim() !== '') return undefined;
    const log = await run('git', ['log', '-1', '--format=%ct', '--', '.'], { cwd });
    const seconds = Number(log.stdout.trim());
    return log.stdout.trim() !== '' && Number.isFinite(seconds)
      ? new Date(seconds * 1000)
      : undefined;
  } catch {
    // Not a git checkout, or git is missing: fall back to file times, which is still monotonic.
    return undefined;
  }
}

async function newestMtime(contentDir: string): Promise<Date> {
  let newest = 0;
  const entries = await readdir(contentDir, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const { mtimeMs } = await stat(path.join(entry.parentPath, entry.name));
    newest = Math.max(newest, mtimeMs);
  }
  return new Date(Math.floor(newest / 1000) * 1000);
}

export async function contentLastModified(contentDir: string): Promise<Date> {
  return (await gitTime(contentDir)) ?? (await newestMtime(contentDir));
}
