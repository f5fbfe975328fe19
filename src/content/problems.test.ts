import { expect, test } from 'vitest';
import { z } from 'zod';
import {
  ContentError,
  closestMatch,
  formatProblem,
  knownKeysAt,
  problemsFromZod,
  unknownKeyMessage,
} from './problems.ts';

const Schema = z
  .object({
    rating: z.number(),
    source: z.enum(['google', 'direct']),
    reply: z.object({ date: z.string(), text: z.string() }).strict().optional(),
    items: z.array(z.object({ answer: z.string() }).strict()).default([]),
  })
  .strict();

function problemsOf(input: unknown, options = {}) {
  const result = Schema.safeParse(input);
  if (result.success) throw new Error('expected the input to fail');
  return problemsFromZod('file.json', Schema, result.error, options);
}

test('a problem reads as file › field: message, or file: message for the whole file', () => {
  expect(formatProblem({ file: 'a.md', field: 'reply.date', message: 'bad' })).toBe(
    'a.md › reply.date: bad',
  );
  expect(formatProblem({ file: 'a.md', field: '', message: 'bad' })).toBe('a.md: bad');
});

test('a content error counts its problems and lists each on its own line', () => {
  const error = new ContentError([
    { file: 'a.md', field: 'rating', message: 'too low' },
    { file: 'b.json', field: '', message: 'is missing' },
  ]);
  expect(error.message).toBe('2 content problems:\n  a.md › rating: too low\n  b.json: is missing');
  expect(new ContentError([{ file: 'a.md', field: '', message: 'x' }]).message).toMatch(
    /^1 content problem:/,
  );
});

test('the closest candidate is suggested only within two edits', () => {
  expect(closestMatch('ratng', ['rating', 'date'])).toBe('rating');
  expect(closestMatch('anwser', ['answer'])).toBe('answer');
  expect(closestMatch('colour', ['rating', 'date'])).toBeUndefined();
});

test('between equally close candidates the first one listed wins', () => {
  expect(closestMatch('dat', ['date', 'data'])).toBe('date');
});

test('an unknown key far from every known key lists them all', () => {
  expect(unknownKeyMessage('colour', ['rating', 'date'])).toBe(
    'unknown key "colour"; known keys: rating, date',
  );
  expect(unknownKeyMessage('ratng', ['rating', 'date'])).toBe(
    'unknown key "ratng"; did you mean "rating"?',
  );
});

test('the known keys are found through optionals, defaults and arrays', () => {
  expect(knownKeysAt(Schema, [])).toEqual(['rating', 'source', 'reply', 'items']);
  expect(knownKeysAt(Schema, ['reply'])).toEqual(['date', 'text']);
  expect(knownKeysAt(Schema, ['items', 0])).toEqual(['answer']);
  expect(knownKeysAt(Schema, ['rating'])).toEqual([]);
});

test('an unknown key is reported at the key itself, with the key it most likely meant', () => {
  const reply = { date: 'x', text: 'y', txt: 'y' };
  expect(problemsOf({ rating: 5, source: 'google', reply })).toEqual([
    { file: 'file.json', field: 'reply.txt', message: 'unknown key "txt"; did you mean "text"?' },
  ]);
});

test('each of several unknown keys in one object is its own problem', () => {
  const problems = problemsOf({ rating: 5, source: 'google', ratng: 4, colour: 'red' });
  expect(problems.map((p) => p.field)).toEqual(['ratng', 'colour']);
  expect(problems[1]!.message).toBe(
    'unknown key "colour"; known keys: rating, source, reply, items',
  );
});

test('other issues keep the schema message, at the dotted path of the field', () => {
  const problems = problemsOf({ rating: 'five', source: 'google', items: [{ answer: 3 }] });
  expect(problems.map((p) => p.field)).toEqual(['rating', 'items.0.answer']);
  expect(problems[0]!.message).toMatch(/expected number/);
});

test('a wrong string is quoted only when the checked input is given', () => {
  const input = { rating: 5, source: 'yelp' };
  expect(problemsOf(input)[0]!.message).not.toContain('yelp');
  expect(problemsOf(input, { input })[0]!.message).toMatch(/ \(got "yelp"\)$/);
});
