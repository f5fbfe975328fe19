// Unit tests for the one YYYY-MM-DD rule: shape and real calendar days (leap years included), and
// the start of a day in a time zone as the feeds write it.
import { describe, expect, test, vi } from 'vitest';
import { IsoDateSchema, formatLongDate, isRealIsoDate, startOfDayInZone } from './dates.ts';

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

describe('startOfDayInZone', () => {
  test.each([
    ['2026-11-15', 'America/Denver', '2026-11-15T00:00:00-07:00'],
    ['2026-07-15', 'America/Denver', '2026-07-15T00:00:00-06:00'],
    // The days the clocks change (at 02:00): midnight still has the offset before the change.
    ['2026-03-08', 'America/Denver', '2026-03-08T00:00:00-07:00'],
    ['2026-11-01', 'America/Denver', '2026-11-01T00:00:00-06:00'],
    ['2024-05-01', 'Asia/Kolkata', '2024-05-01T00:00:00+05:30'],
    ['2024-01-15', 'Europe/Berlin', '2024-01-15T00:00:00+01:00'],
    ['2024-07-15', 'Europe/Berlin', '2024-07-15T00:00:00+02:00'],
    ['2024-05-01', 'UTC', '2024-05-01T00:00:00Z'],
    ['2024-01-15', 'Europe/London', '2024-01-15T00:00:00Z'],
  ])('%s in %s starts at %s', (date, zone, expected) => {
    expect(startOfDayInZone(date, zone)).toBe(expected);
  });

  test('is the instant the day begins in the zone', () => {
    const instant = Date.parse(startOfDayInZone('2026-11-15', 'America/Denver'));
    expect(instant).toBe(Date.parse('2026-11-15T07:00:00Z'));
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Denver' });
    expect(local.format(instant)).toBe('2026-11-15');
    expect(local.format(instant - 1000)).toBe('2026-11-14');
  });

  test('where the clocks skip midnight, the day starts when they resume', () => {
    // Chile moved its clocks from 00:00 to 01:00 on 8 September 2024.
    expect(startOfDayInZone('2024-09-08', 'America/Santiago')).toBe('2024-09-08T01:00:00-03:00');
    // And back from 00:00 to 23:00 the day before on 7 April 2024: midnight came once.
    expect(startOfDayInZone('2024-04-07', 'America/Santiago')).toBe('2024-04-07T00:00:00-04:00');
  });

  test('old dates in local mean time keep a whole-minute offset on the same day', () => {
    const value = startOfDayInZone('1850-05-01', 'Europe/Paris');
    expect(value).toMatch(/^1850-05-01T00:00:\d{2}\+00:10$/);
    expect(startOfDayInZone('0202-05-01', 'UTC')).toBe('0202-05-01T00:00:00Z');
  });

  test('does not depend on the clock', () => {
    const before = startOfDayInZone('2026-07-15', 'America/Denver');
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2001-01-01T12:00:00Z'));
    try {
      expect(startOfDayInZone('2026-07-15', 'America/Denver')).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});

test('formatLongDate writes a calendar day in US English without shifting it', () => {
  expect(formatLongDate('2024-05-01')).toBe('May 1, 2024');
  expect(formatLongDate('2024-12-31')).toBe('December 31, 2024');
});
