// Paging for the tools that can return many reviews: `limit` (1 to 100, default 20) and an
// opaque `cursor` from the previous page's `next_cursor`. A cursor carries its offset and a hash
// of the arguments it was made for, so it cannot be replayed against a different question.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ValidationError } from '../core/errors.ts';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export const CursorSchema = z
  .string({ error: 'expected a cursor string' })
  .min(1, { error: 'must not be empty' })
  .max(200, { error: 'is not a cursor from this tool' })
  .describe("Opaque: the previous page's next_cursor. Omit for the first page.");

export const PageLimitSchema = z
  .number({ error: `expected an integer from 1 to ${PAGE_LIMIT_MAX}` })
  .int({ error: `expected an integer from 1 to ${PAGE_LIMIT_MAX}` })
  .min(1, { error: `expected an integer from 1 to ${PAGE_LIMIT_MAX}` })
  .max(PAGE_LIMIT_MAX, { error: `expected an integer from 1 to ${PAGE_LIMIT_MAX}` })
  .default(PAGE_LIMIT_DEFAULT)
  .describe(
    `Reviews per page (1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}); follow next_cursor for more.`,
  );

function questionHash(question: unknown): string {
  return createHash('sha256').update(JSON.stringify(question)).digest('base64url').slice(0, 12);
}

export function encodeCursor(offset: number, question: unknown): string {
  return Buffer.from(`${offset}.${questionHash(question)}`).toString('base64url');
}

const invalid = (message: string) =>
  new ValidationError('invalid cursor', [{ path: ['cursor'], code: 'invalid_cursor', message }]);

/** The offset a cursor points at (0 without one); a ValidationError naming `cursor` otherwise. */
export function decodeCursor(cursor: string | undefined, question: unknown): number {
  if (cursor === undefined) return 0;
  const match = /^(\d{1,9})\.([\w-]{12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalid('is not a cursor from this tool');
  if (match[2] !== questionHash(question))
    throw invalid('belongs to a different question; ask again without a cursor');
  return Number(match[1]);
}

/** The next page's cursor, or nothing when this page reaches the end. */
export function nextCursor(
  offset: number,
  returned: number,
  total: number,
  question: unknown,
): { next_cursor?: string } {
  const next = offset + returned;
  return next < total ? { next_cursor: encodeCursor(next, question) } : {};
}
