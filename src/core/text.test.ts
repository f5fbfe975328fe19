import { describe, expect, test } from 'vitest';
import { sourceOf } from './text.ts';

describe('sourceOf', () => {
  test("gives the text's own line breaks and runs of spaces back", () => {
    const text = 'Great roof.\nThey were on time, and the crew\ncleaned up   after.\n\nFive stars.';
    expect(sourceOf(text, 'They were on time, and the crew cleaned up after.')).toBe(
      'They were on time, and the crew\ncleaned up   after.',
    );
    expect(sourceOf('on\u00a0time\t\tand tidy', 'on time and tidy')).toBe(
      'on\u00a0time\t\tand tidy',
    );
  });

  test('reads the characters of regular expressions as themselves', () => {
    const sentence = 'Cost $5,000 (cash) + tax? [sic] a|b \\ ^ * {2} done.';
    const text = `Intro. Cost $5,000 (cash)\n+ tax? [sic] a|b \\ ^ * {2} done. End.`;
    expect(sourceOf(text, sentence)).toBe('Cost $5,000 (cash)\n+ tax? [sic] a|b \\ ^ * {2} done.');
    expect(sourceOf('Cost 5000 cash', 'Cost $5,000 (cash)')).toBeNull();
  });

  test('is null for words that stand nowhere in the text, and finds the first place they do', () => {
    expect(sourceOf('The roof leaks.', 'The roof is fine.')).toBeNull();
    expect(sourceOf('Fair price.\nFair\nprice.', 'Fair price.')).toBe('Fair price.');
  });
});
