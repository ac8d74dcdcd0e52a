/**
 * Wall-clock times in the blood bank's time zone (TIMEZONE), for code that walks a calendar: the
 * demo seed schedules "09:40 at the bank" and its test reads the hour of a stored instant back.
 */
const MINUTE_MS = 60_000;
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const hourMinuteFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at that instant, in minutes (+330 for Asia/Kolkata). */
function offsetMinutesAt(instantMs: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(instantMs).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0; // "GMT" itself
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant at which the bank's clocks show `minuteOfDay` (0..1439) on `day` (YYYY-MM-DD). */
export function instantAtBankTime(day: string, minuteOfDay: number, timeZone: string): Date {
  const wallClockMs = Date.parse(`${day}T00:00:00Z`) + minuteOfDay * MINUTE_MS;
  // The offset found for the first guess is right unless a daylight-saving change lies between.
  const firstGuess = wallClockMs - offsetMinutesAt(wallClockMs, timeZone) * MINUTE_MS;
  return new Date(wallClockMs - offsetMinutesAt(firstGuess, timeZone) * MINUTE_MS);
}

/** Minutes since midnight on the bank's clocks at that instant. */
export function bankMinuteOfDay(instant: Date, timeZone: string): number {
  let formatter = hourMinuteFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    hourMinuteFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(instant);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return value('hour') * 60 + value('minute');
}
