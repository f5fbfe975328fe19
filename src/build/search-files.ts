// DIST_DIR/search: what the server's search index opens, written by the build beside the site (not
// under client/: they are not published): the filter columns, the folded text, its suffix array and
// the review sets of its frequent substrings (substring-index.ts). The suffix array is sorted here,
// once per build, so the server starts without sorting anything.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SEARCH_DATA_VERSION, type SearchColumns, type SearchData } from '../core/search-data.ts';
import {
  buildSubstringData,
  decodeSubstringData,
  encodeSubstringData,
  type SubstringData,
} from '../core/substring-index.ts';

const COLUMNS_FILE = 'search/columns.json';
const FOLDED_FILE = 'search/folded.bin';
const SUFFIX_ARRAY_FILE = 'search/suffix-array.bin';
const FREQUENT_FILE = 'search/frequent-substrings.bin';

export interface SearchFiles {
  columns: SearchColumns;
  folded: Buffer;
  substrings: SubstringData;
}

export async function writeSearchFiles(distDir: string, search: SearchData): Promise<void> {
  await mkdir(path.join(distDir, 'search'), { recursive: true });
  const substrings = buildSubstringData(
    search.folded,
    Uint32Array.from(search.columns.folded_offsets),
  );
  const encoded = encodeSubstringData(substrings);
  await writeFile(path.join(distDir, COLUMNS_FILE), JSON.stringify(search.columns));
  await writeFile(path.join(distDir, FOLDED_FILE), search.folded);
  await writeFile(path.join(distDir, SUFFIX_ARRAY_FILE), encoded.suffixArray);
  await writeFile(path.join(distDir, FREQUENT_FILE), encoded.frequent);
}

export async function readSearchFiles(distDir: string): Promise<SearchFiles> {
  const columns = JSON.parse(
    await readFile(path.join(distDir, COLUMNS_FILE), 'utf8'),
  ) as SearchColumns;
  if (columns.version !== SEARCH_DATA_VERSION) {
    throw new Error(
      `${distDir}: search data version ${String(columns.version)} is not ${SEARCH_DATA_VERSION}; rebuild with \`npm run build\`.`,
    );
  }
  const [folded, suffixArray, frequent] = await Promise.all(
    [FOLDED_FILE, SUFFIX_ARRAY_FILE, FREQUENT_FILE].map((file) =>
      readFile(path.join(distDir, file)),
    ),
  );
  const substrings = decodeSubstringData(suffixArray!, frequent!);
  if (substrings.suffixArray.length !== folded!.length) {
    throw new Error(
      `${distDir}: ${SUFFIX_ARRAY_FILE} does not match ${FOLDED_FILE}; rebuild with \`npm run build\`.`,
    );
  }
  return { columns, folded: folded!, substrings };
}
