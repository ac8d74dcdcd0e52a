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

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}
