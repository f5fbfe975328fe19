// DIST_DIR/search: the filter columns and folded text the server's search index opens, written by
// the build beside the site (not under client/: they are not published).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SEARCH_DATA_VERSION, type SearchColumns, type SearchData } from '../core/search-data.ts';

const COLUMNS_FILE = 'search/columns.json';
const FOLDED_FILE = 'search/folded.txt';

export async function writeSearchFiles(distDir: string, search: SearchData): Promise<void> {
  await mkdir(path.join(distDir, 'search'), { recursive: true });
  await writeFile(path.join(distDir, COLUMNS_FILE), JSON.stringify(search.columns));
  await writeFile(path.join(distDir, FOLDED_FILE), search.folded);
}

export async function readSearchFiles(
  distDir: string,
): Promise<{ columns: SearchColumns; folded: Buffer }> {
  const columns = JSON.parse(
    await readFile(path.join(distDir, COLUMNS_FILE), 'utf8'),
  ) as SearchColumns;
  if (columns.version !== SEARCH_DATA_VERSION) {
    throw new Error(
      `${distDir}: search data version ${String(columns.version)} is not ${SEARCH_DATA_VERSION}; rebuild with \`npm run build\`.`,
    );
  }
  return { columns, folded: await readFile(path.join(distDir, FOLDED_FILE)) };
}
