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

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// One offset formatter per zone, for the reason given for LONG_DATE below.
const OFFSET_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
function utcOffsetAt(timeZone: string, instant: number): number {
  let format = OFFSET_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    OFFSET_FORMATS.set(timeZone, format);
  }
  const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
  // "GMT", "GMT-07:00", "GMT+05:30", or with seconds for local mean time before standard zones.
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name ?? '');
  if (!match) throw new Error(`unexpected UTC offset "${name}" in time zone ${timeZone}`);
  const [, sign, hours = '0', minutes = '0', seconds = '0'] = match;
  const ms = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
  return sign === '-' ? -ms : ms;
}

/** Midnight UTC of a YYYY-MM-DD date, as a time value (years 0–99 included). */
function utcMidnight(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const value = new Date(0);
  value.setUTCFullYear(year, month - 1, day);
  return value.getTime();
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * RFC 3339 timestamp of the first instant of a YYYY-MM-DD day in an IANA time zone, written in
 * that zone's local time with the day's own offset: `2026-11-15T00:00:00-07:00` and
 * `2026-07-15T00:00:00-06:00` in America/Denver, `…Z` where the offset is zero. A reader in the
 * business's zone then shows the day the review was written on. Where the clocks skip midnight,
 * the day starts when they resume (`01:00` with the new offset); where midnight happens twice,
 * at the first. A pure function of the date and the zone.
 */
export function startOfDayInZone(date: string, timeZone: string): string {
  const wall = utcMidnight(date);
  // The offsets in force on either side of the day; at most one change falls between them.
  const before = utcOffsetAt(timeZone, wall - DAY_MS);
  const after = utcOffsetAt(timeZone, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter(
    (instant) => instant + utcOffsetAt(timeZone, instant) === wall,
  );
  let instant: number;
  if (candidates.length > 0) {
    instant = Math.min(...candidates);
  } else {
    // Midnight is skipped: the day starts at the change, found to the second.
    let lo = Math.min(wall - before, wall - after); // still the day before
    let hi = Math.max(wall - before, wall - after); // already the day itself
    while (hi - lo > 1000) {
      const mid = lo + Math.max(1000, Math.floor((hi - lo) / 2000) * 1000);
      if (mid + utcOffsetAt(timeZone, mid) >= wall) hi = mid;
      else lo = mid;
    }
    instant = hi;
  }
  // RFC 3339 offsets are whole minutes; a local-mean-time offset with seconds is rounded up so
  // that the local time written is still on the day itself (at most a minute past midnight).
  const offsetMinutes = Math.ceil(utcOffsetAt(timeZone, instant) / MINUTE_MS);
  const local = new Date(instant + offsetMinutes * MINUTE_MS);
  const day = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const absolute = Math.abs(offsetMinutes);
  const zone =
    offsetMinutes === 0
      ? 'Z'
      : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  return `${day}T${time}${zone}`;
}

// One formatter for the whole build: each Intl.DateTimeFormat holds native ICU memory the garbage
// collector does not see, so one per rendered date made a 100k-page build grow by gigabytes.
const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "May 1, 2024" for 2024-05-01: a calendar day, formatted in UTC so it never shifts. */
export function formatLongDate(date: string): string {
  return LONG_DATE.format(new Date(utcMidnight(date)));
}
