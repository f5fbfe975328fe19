// The typed errors core code throws. Each host maps them once: HTTP to a 400 body, MCP to a tool
// error, the build to a message naming the file and field.
import { z } from 'zod';

export interface Issue {
  path: (string | number)[];
  code: string;
  message: string;
}

export class ValidationError extends Error {
  readonly issues: Issue[];

  constructor(message: string, issues: Issue[]) {
    super(message);
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

/**
 * A zod issue's words, said plainly where zod's are generic: a field that is not there is "is
 * required (expected string)", not "Invalid input: expected string, received undefined".
 */
export function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))
    return `is required (expected ${issue.expected})`;
  return issue.message;
}

/** zod issues reduced to the wire shape `{path, code, message}`. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
    code: issue.code,
    message: issueText(issue),
  }));
}

/**
 * A tool's argument issues: as toIssues, but an unknown key is an issue of its own, at the key
 * ("colour: is not an argument of this tool"), so every issue reads `<field>: <reason>`.
 */
export function argumentIssues(error: z.ZodError): Issue[] {
  return toIssues(error).flatMap((issue, index) => {
    const raw = error.issues[index];
    if (raw?.code !== 'unrecognized_keys') return [issue];
    return raw.keys.map((key) => ({
      path: [...issue.path, key],
      code: 'unrecognized_keys',
      message: 'is not an argument of this tool',
    }));
  });
}

/** Answers list at most this many issues, so a request with thousands of faults stays cheap. */
export const MAX_LISTED_ISSUES = 20;

/** The issues an answer lists, and how many more there were. */
export function listedIssues(issues: readonly Issue[]): { listed: Issue[]; more: number } {
  return {
    listed: issues.slice(0, MAX_LISTED_ISSUES),
    more: Math.max(0, issues.length - MAX_LISTED_ISSUES),
  };
}

/** "rating: Too big: expected number to be <=5; limit: ..." for one-line messages. */
export function describeIssues(issues: readonly Issue[]): string {
  const { listed, more } = listedIssues(issues);
  const text = listed
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
  return more > 0 ? `${text}; and ${more} more` : text;
}

/** Body of every error response: `{error, message, issues}`. */
export const ErrorBodySchema = z.object({
  error: z
    .string()
    .meta({ description: 'machine-readable error kind, e.g. invalid_request, not_found' }),
  message: z.string(),
  issues: z.array(
    z.object({
      path: z.array(z.union([z.string(), z.number()])),
      code: z.string(),
      message: z.string(),
    }),
  ),
});
