// Content problems: what is wrong, in which file, at which field. Every loader reports through
// this module, so a schema failure reads the same for business.json, a review, the FAQ or the
// lexicon: "file › field: message", an unknown key with the known key it most likely meant.
import path from 'node:path';
import { z } from 'zod';
import { editDistance } from '../core/edit-distance.ts';
import { issueText } from '../core/errors.ts';

export interface ContentProblem {
  file: string;
  /** Dotted path inside the file (`reply.date`, `technicians.0`); empty for the whole file. */
  field: string;
  message: string;
}

/** A problem inside a file that is not yet named. */
export type FieldProblem = Pick<ContentProblem, 'field' | 'message'>;

export class ContentError extends Error {
  readonly problems: ContentProblem[];

  constructor(problems: ContentProblem[]) {
    super(
      `${problems.length} content problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  ${formatProblem(p)}`).join('\n'),
    );
    this.name = 'ContentError';
    this.problems = problems;
  }
}

export function formatProblem({ file, field, message }: ContentProblem): string {
  return `${file}${field ? ` › ${field}` : ''}: ${message}`;
}

/** A file as problems name it: relative to the working directory. */
export function shownPath(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

/** A JSON file that could not be read or parsed, with the reason `readJson` gave. */
export function invalidJsonProblem(file: string, message: string): ContentProblem {
  return { file, field: '', message };
}

/** A suggestion is only made this close: further off, it is more likely another word. */
const SUGGESTION_DISTANCE = 2;

/** The candidate closest to `word`, if one is close enough to be what was meant. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = SUGGESTION_DISTANCE + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate, SUGGESTION_DISTANCE);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const closest = closestMatch(key, known);
  const hint =
    closest === undefined ? `known keys: ${known.join(', ')}` : `did you mean "${closest}"?`;
  return `unknown key "${key}"; ${hint}`;
}

function fieldOf(issuePath: readonly PropertyKey[]): string {
  return issuePath.map(String).join('.');
}

function unwrap(node: unknown): unknown {
  let current = node;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap();
  }
  return current;
}

/** The keys a strict object schema allows at `issuePath` (through optionals, defaults, arrays). */
export function knownKeysAt(schema: z.ZodType, issuePath: readonly PropertyKey[]): string[] {
  let node = unwrap(schema);
  for (const part of issuePath) {
    if (node instanceof z.ZodObject && typeof part === 'string') node = unwrap(node.shape[part]);
    else if (node instanceof z.ZodArray) node = unwrap(node.element);
    else return [];
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

function valueAt(value: unknown, issuePath: readonly PropertyKey[]): unknown {
  let node = value;
  for (const part of issuePath) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

export interface ZodProblemOptions {
  /** The value that was checked: given, a wrong string is quoted in its message (`got "..."`). */
  input?: unknown;
}

/**
 * zod's issues for `file` as content problems. An unknown key (zod's `unrecognized_keys`, whose
 * path is the enclosing object) is reported at the key itself, with the closest known key as a
 * suggestion, or the known keys when none is close.
 */
export function problemsFromZod(
  file: string,
  schema: z.ZodType,
  error: z.ZodError,
  options: ZodProblemOptions = {},
): ContentProblem[] {
  return error.issues.flatMap((issue): ContentProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path);
      return issue.keys.map((key) => ({
        file,
        field: fieldOf([...issue.path, key]),
        message: unknownKeyMessage(key, known),
      }));
    }
    const given = 'input' in options ? valueAt(options.input, issue.path) : undefined;
    const text = issueText(issue);
    const message = typeof given === 'string' ? `${text} (got "${given}")` : text;
    return [{ file, field: fieldOf(issue.path), message }];
  });
}
