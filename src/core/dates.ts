// Calendar dates as the wire writes them (YYYY-MM-DD). One definition, shared by content
// validation, search, the since endpoint and the MCP tools.
import { z } from 'zod';

const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is YYYY-MM-DD and names a real day (2023-02-30 is not one). */
export function isRealIsoDate(value: string): boolean {
  const match = ISO_DATE_PATTERN.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

// Proleptic Gregorian arithmetic rather than `Date.UTC`, which maps years 0–99 to 1900–1999
// (so `0000-02-29`, a leap day, would be refused as if it were 1900).
function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export const IsoDateSchema = z
  .string()
  // A date not written YYYY-MM-DD is not checked against the calendar too: one problem, not two.
  .regex(ISO_DATE_PATTERN, { message: 'expected a date written YYYY-MM-DD', abort: true })
  .refine(isRealIsoDate, { message: 'expected a real calendar date (YYYY-MM-DD)' })
  .meta({ format: 'date', examples: ['2024-05-01'] });

/** RFC 3339 timestamp at midnight UTC for a YYYY-MM-DD date (feeds need a full date-time). */
export function isoDateToTimestamp(date: string): string {
  return `${date}T00:00:00Z`;
}

// One formatter for the whole build: each Intl.DateTimeFormat holds native ICU memory the garbage
// collector does not see, so one per rendered date made a 100k-page build grow by gigabytes.
const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "May 1, 2024" for 2024-05-01: a calendar day, formatted in UTC so it never shifts. */
export function formatLongDate(date: string): string {
  return LONG_DATE.format(new Date(isoDateToTimestamp(date)));
}
