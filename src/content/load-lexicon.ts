// Reads and validates the aspect lexicon, `<CONTENT_DIR>/insights/lexicon.json`, for the build
// (through loadContent), `npm run aspects` and `npm run eval:aspects`. Problems name the file and
// the field, as every content problem does.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EMPTY_LEXICON, LexiconSchema, type Lexicon } from '../core/insights/lexicon.ts';
import type { ContentProblem } from './load-content.ts';

export const LEXICON_FILE = path.join('insights', 'lexicon.json');

function readAt(value: unknown, issuePath: readonly PropertyKey[]): unknown {
  let node = value;
  for (const part of issuePath) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/**
 * The lexicon of `contentDir`, its problems appended to `problems` (the list loadContent
 * collects). Without the file there are no cues, as without faq.json there is no FAQ; a file
 * with problems gives no cues either, and the caller stops on the problems.
 */
export async function readLexicon(
  contentDir: string,
  display: (file: string) => string,
  problems: ContentProblem[],
): Promise<Lexicon> {
  const file = path.join(contentDir, LEXICON_FILE);
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_LEXICON;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    problems.push({
      file: display(file),
      field: '',
      message: `is not valid JSON (${(error as Error).message})`,
    });
    return EMPTY_LEXICON;
  }
  const result = LexiconSchema.safeParse(value);
  if (result.success) return result.data;
  const report = (field: readonly PropertyKey[], message: string) =>
    problems.push({ file: display(file), field: field.map(String).join('.'), message });
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) report([...issue.path, key], `unknown key "${key}"`);
      continue;
    }
    const at = readAt(value, issue.path);
    report(issue.path, typeof at === 'string' ? `${issue.message} (got "${at}")` : issue.message);
  }
  return EMPTY_LEXICON;
}

/** The lexicon of `contentDir` alone, for the scripts that need nothing else. */
export async function loadLexicon(
  contentDir: string,
): Promise<{ lexicon: Lexicon; problems: ContentProblem[] }> {
  const problems: ContentProblem[] = [];
  const display = (file: string) => path.relative(process.cwd(), file) || file;
  const lexicon = await readLexicon(contentDir, display, problems);
  return { lexicon, problems };
}
