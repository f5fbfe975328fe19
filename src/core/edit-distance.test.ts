import { expect, test } from 'vitest';
import { editDistance } from './edit-distance.ts';

test('a word is no distance from itself', () => {
  expect(editDistance('rating', 'rating')).toBe(0);
  expect(editDistance('', '')).toBe(0);
});

test('from or to the empty word, the distance is the length', () => {
  expect(editDistance('', 'cues')).toBe(4);
  expect(editDistance('cues', '')).toBe(4);
});

test.each([
  ['ratng', 'rating', 1, 'one letter left out'],
  ['texts', 'text', 1, 'one letter too many'],
  ['rsting', 'rating', 1, 'one letter replaced'],
  ['anwser', 'answer', 1, 'two neighbouring letters swapped'],
  ['proffesional', 'professional', 2, 'a doubled letter moved'],
  ['kitten', 'sitting', 3, 'three edits'],
])('%s → %s is %i (%s)', (a, b, distance) => {
  expect(editDistance(a, b)).toBe(distance);
  expect(editDistance(b, a)).toBe(distance);
});

test('with a bound, a distance over it comes back as the bound plus one', () => {
  expect(editDistance('roof', 'roofing', 1)).toBe(2);
  expect(editDistance('kitten', 'sitting', 1)).toBeGreaterThan(1);
});

test('with a bound, a distance within it is exact', () => {
  expect(editDistance('anwser', 'answer', 1)).toBe(1);
  expect(editDistance('proffesional', 'professional', 2)).toBe(2);
});
