// The build manifest (`dist/site-manifest.json`): every file under dist/client with its URL path,
// strong ETag, size and exact Content-Type, plus the content's Last-Modified. Written once by the
// build so the server starts without hashing the site.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { computeEtag } from '../core/http-cache.ts';
import { contentTypeForPath } from '../core/site.ts';

export const MANIFEST_FILE = 'site-manifest.json';

export const ManifestSchema = z.object({
  last_modified: z.string(),
  files: z.record(
    z.string(),
    z.object({ file: z.string(), etag: z.string(), size: z.number(), type: z.string() }),
  ),
});

export type Manifest = z.infer<typeof ManifestSchema>;

export async function writeManifest(distDir: string, lastModified: Date): Promise<Manifest> {
  const clientDir = path.join(distDir, 'client');
  const entries = await readdir(clientDir, { withFileTypes: true, recursive: true });
  const files: Manifest['files'] = {};
  const relatives = entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
  for (const relative of relatives) {
    const bytes = await readFile(path.join(clientDir, relative));
    const urlPath = `/${relative}`.replace(/(^|\/)index\.html$/, '$1');
    files[urlPath] = {
      file: relative,
      etag: computeEtag(bytes),
      size: bytes.length,
      type: contentTypeForPath(relative),
    };
  }
  const manifest = { last_modified: lastModified.toUTCString(), files };
  await writeFile(path.join(distDir, MANIFEST_FILE), JSON.stringify(manifest));
  return manifest;
}

export async function readManifest(distDir: string): Promise<Manifest> {
  const file = path.join(distDir, MANIFEST_FILE);
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch {
    throw new Error(
      `${file} is missing: run \`npm run build\` first (or \`npm start\`, which builds when needed).`,
    );
  }
  return ManifestSchema.parse(JSON.parse(source));
}
