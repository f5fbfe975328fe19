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
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

export const IsoDateSchema = z
  .string()
  .regex(ISO_DATE_PATTERN, { message: 'expected a date written YYYY-MM-DD' })
  .refine(isRealIsoDate, { message: 'expected a real calendar date (YYYY-MM-DD)' })
  .meta({ format: 'date', example: '2024-05-01' });

/** RFC 3339 timestamp at midnight UTC for a YYYY-MM-DD date (feeds need a full date-time). */
export function isoDateToTimestamp(date: string): string {
  return `${date}T00:00:00Z`;
}
