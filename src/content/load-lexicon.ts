// Reads and validates the aspect lexicon, `<CONTENT_DIR>/insights/lexicon.json`, for the build
// (through loadContent), `npm run aspects` and `npm run eval:aspects`. Problems name the file and
// the field, as every content problem does, a wrong word quoted and an unknown key with the key
// it most likely meant.
import path from 'node:path';
import { EMPTY_LEXICON, LexiconSchema, type Lexicon } from '../core/insights/lexicon.ts';
import { invalidJsonProblem, problemsFromZod, shownPath, type ContentProblem } from './problems.ts';
import { readJson } from './read-content.ts';

export const LEXICON_FILE = path.join('insights', 'lexicon.json');

/**
 * The lexicon of `contentDir` and its problems. Without the file there are no cues, as without
 * faq.json there is no FAQ; a file with problems gives no cues either, and the caller stops on
 * the problems.
 */
export async function loadLexicon(
  contentDir: string,
): Promise<{ lexicon: Lexicon; problems: ContentProblem[] }> {
  const file = path.join(contentDir, LEXICON_FILE);
  const source = await readJson(file);
  if (source.kind === 'missing') return { lexicon: EMPTY_LEXICON, problems: [] };
  if (source.kind === 'invalid') {
    return {
      lexicon: EMPTY_LEXICON,
      problems: [invalidJsonProblem(shownPath(file), source.message)],
    };
  }
  const result = LexiconSchema.safeParse(source.value);
  if (result.success) return { lexicon: result.data, problems: [] };
  const problems = problemsFromZod(shownPath(file), LexiconSchema, result.error, {
    input: source.value,
  });
  return { lexicon: EMPTY_LEXICON, problems };
}
