/**
 * Calendar dates travel and are stored as `YYYY-MM-DD` text. "Today" is always the blood bank's
 * calendar day in a named time zone, so a date picked on a phone late at night means the same day
 * on the server.
 */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a `YYYY-MM-DD` text names a day of the (proleptic Gregorian) calendar. */
export function isValidIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  // Arithmetic rather than a Date round trip: every form with a date checks it, and formatting a
  // Date back to text was most of what validating a blood request cost the server.
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The calendar dates the product accepts anywhere (PRODUCT.md 3.9): a birth year to a booking. */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2100-12-31';
export const DATE_RANGE_MESSAGE = `Please enter a date between ${EARLIEST_DATE} and ${LATEST_DATE}`;

/** A valid `YYYY-MM-DD` text inside the supported range (fixed-width text compares as dates do). */
export function isSupportedIsoDate(value: string): boolean {
  return isValidIsoDate(value) && value >= EARLIEST_DATE && value <= LATEST_DATE;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** One formatter per named zone: building an Intl.DateTimeFormat costs far more than using one. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone?: string): Intl.DateTimeFormat {
  // en-CA formats as YYYY-MM-DD.
  const create = () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  // The runtime's local zone can change (TZ), so only named zones are kept.
  if (timeZone === undefined) return create();
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = create();
    dayFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Today's calendar date in `timeZone` (an IANA name; undefined means the runtime's local zone). */
export function todayIn(timeZone?: string, now: Date = new Date()): string {
  return dayFormatter(timeZone).format(now);
}

const timeFormatters = new Map<string, Intl.DateTimeFormat>();

/** The time of day in `timeZone` (an IANA name), `HH:MM` on a 24-hour clock. */
export function timeIn(timeZone: string, now: Date = new Date()): string {
  let formatter = timeFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    timeFormatters.set(timeZone, formatter);
  }
  return formatter.format(now);
}

/**
 * The calendar date `days` after `isoDate` (before, when negative). Calendar arithmetic: the parts
 * are read as numbers and the result is written as four-digit year, month and day, so no date can
 * come back in another shape (toISOString writes year 10000 as "+010000").
 */
export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day + days));
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  date.setUTCFullYear(year, month - 1, day + days);
  const resultYear = date.getUTCFullYear();
  if (resultYear < 0 || resultYear > 9999) throw new RangeError(`addDays: ${isoDate} + ${days} days leaves the calendar`);
  return `${String(resultYear).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

/**
 * The calendar date `months` after `isoDate` (before, when negative), on the same day of the month,
 * or that month's last day when it is shorter: 12 months before 2024-02-29 is 2023-02-28.
 */
export function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const monthIndex = year * 12 + (month - 1) + months;
  const resultYear = Math.floor(monthIndex / 12);
  const resultMonth = monthIndex - resultYear * 12 + 1;
  if (resultYear < 0 || resultYear > 9999) throw new RangeError(`addMonths: ${isoDate} + ${months} months leaves the calendar`);
  const leap = resultYear % 4 === 0 && (resultYear % 100 !== 0 || resultYear % 400 === 0);
  const monthLength = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][resultMonth - 1]!;
  return `${String(resultYear).padStart(4, '0')}-${String(resultMonth).padStart(2, '0')}-${String(Math.min(day, monthLength)).padStart(2, '0')}`;
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}
