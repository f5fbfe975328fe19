// Unit tests for the one YYYY-MM-DD rule: shape and real calendar days (leap years included).
import { describe, expect, test } from 'vitest';
import { IsoDateSchema, formatLongDate, isoDateToTimestamp, isRealIsoDate } from './dates.ts';

describe('isRealIsoDate', () => {
  test.each([
    ['2024-02-29', 'a leap day in a year divisible by 4'],
    ['2000-02-29', 'a leap day in a year divisible by 400'],
    ['1600-02-29', 'a leap day in an early year divisible by 400'],
    ['0000-02-29', 'a leap day in year 0 (proleptic Gregorian, not 1900)'],
    ['0004-02-29', 'a leap day in year 4'],
    ['2023-01-31', 'the last day of a 31-day month'],
    ['2023-04-30', 'the last day of a 30-day month'],
    ['2023-02-28', 'the last day of February in a common year'],
    ['2023-12-31', 'the last day of the year'],
    ['2024-01-01', 'the first day of the year'],
    ['9999-12-31', 'the largest four-digit year'],
  ])('accepts %s (%s)', (value) => {
    expect(isRealIsoDate(value)).toBe(true);
  });

  test.each([
    ['2023-02-29', 'a leap day in a common year'],
    ['2100-02-29', 'a leap day in a century not divisible by 400'],
    ['1900-02-29', 'a leap day in 1900'],
    ['2023-02-30', 'February 30th'],
    ['2023-04-31', 'the 31st of a 30-day month'],
    ['2023-01-32', 'day 32'],
    ['2023-13-01', 'month 13'],
    ['2023-00-10', 'month 00'],
    ['2023-01-00', 'day 00'],
    ['2024-1-01', 'a one-digit month'],
    ['2024-01-1', 'a one-digit day'],
    ['24-01-01', 'a two-digit year'],
    ['+02024-01-01', 'an expanded year'],
    ['2024/01/01', 'slashes'],
    ['20240101', 'the basic format'],
    ['2024-01-01T00:00:00Z', 'a timestamp'],
    ['2024-01-01x', 'trailing characters'],
    ['x2024-01-01', 'leading characters'],
    [' 2024-01-01', 'leading whitespace'],
    ['2024-01-01 ', 'trailing whitespace'],
    ['2024-01-01\n', 'a trailing newline'],
    ['2024-0１-01', 'non-ASCII digits'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(isRealIsoDate(value)).toBe(false);
  });
});

describe('IsoDateSchema', () => {
  test('passes a real date through unchanged', () => {
    expect(IsoDateSchema.parse('2024-02-29')).toBe('2024-02-29');
  });

  test('rejects a badly shaped date with the expected format', () => {
    const result = IsoDateSchema.safeParse('2024-1-01');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(
      'expected a date written YYYY-MM-DD',
    );
  });

  test.each(['2023-02-29', '2100-02-29', '2023-02-30', '2023-13-01', '2023-01-00'])(
    'rejects the impossible date %s as not a real calendar date',
    (value) => {
      const result = IsoDateSchema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'expected a real calendar date (YYYY-MM-DD)',
      ]);
    },
  );

  test.each([' 2024-01-01', '2024-01-01 ', '2024-01-01x'])(
    'rejects %j with surrounding characters',
    (value) => {
      expect(IsoDateSchema.safeParse(value).success).toBe(false);
    },
  );

  test.each([20240101, new Date('2024-01-01'), null, undefined])(
    'rejects the non-string %s',
    (value) => {
      expect(IsoDateSchema.safeParse(value).success).toBe(false);
    },
  );
});

describe('isoDateToTimestamp', () => {
  test('is midnight UTC of the date (RFC 3339)', () => {
    expect(isoDateToTimestamp('2024-05-01')).toBe('2024-05-01T00:00:00Z');
  });
});

test('formatLongDate writes a calendar day in US English without shifting it', () => {
  expect(formatLongDate('2024-05-01')).toBe('May 1, 2024');
  expect(formatLongDate('2024-12-31')).toBe('December 31, 2024');
});
