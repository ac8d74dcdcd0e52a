import { addDays } from '@bloodbank/shared/dates';

/** The Monday on or before a YYYY-MM-DD date (weeks start on Monday). */
export function mondayOf(isoDate: string): string {
  const weekday = new Date(`${isoDate}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(isoDate, -((weekday + 6) % 7));
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Minutes the zone is ahead of UTC at this instant. */
function zoneOffsetMinutes(instantMs: number, timeZone: string): number {
  const parts = partFormatter(timeZone).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/**
 * The instant (ISO-8601 UTC, as created_at is stored) at which a calendar day begins in the blood
 * bank's time zone, so that "this week" means the bank's week, not UTC's.
 */
export function startOfDayInstant(isoDate: string, timeZone: string): string {
  const midnightUtc = Date.parse(`${isoDate}T00:00:00Z`);
  let instant = midnightUtc - zoneOffsetMinutes(midnightUtc, timeZone) * 60_000;
  // Across a daylight-saving change the offset at the result can differ from the first guess.
  const corrected = midnightUtc - zoneOffsetMinutes(instant, timeZone) * 60_000;
  if (corrected !== instant) instant = corrected;
  return new Date(instant).toISOString();
}

const DAY_MS = 86_400_000;
const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * Writes instants (ISO-8601 UTC, as they are stored) in the bank's wall-clock time with its offset,
 * `2026-12-08T00:06:40+05:30`: a spreadsheet of the bank's day then reads the day and the hour staff
 * lived, where UTC put a booking made at six past midnight in Kolkata on the day before.
 *
 * An export writes up to four instants a row for a hundred thousand rows, and asking Intl for an
 * offset costs microseconds: the offset is asked once per UTC day, and for each instant only on the
 * few days a zone's clocks change.
 */
export function bankTimeWriter(timeZone: string): (instant: string | null) => string | null {
  const dayOffsets = new Map<number, number | null>();
  return (instant) => {
    if (instant === null) return null;
    const ms = Date.parse(instant);
    if (Number.isNaN(ms)) return instant;
    const day = Math.floor(ms / DAY_MS);
    let dayOffset = dayOffsets.get(day);
    if (dayOffset === undefined) {
      const atStart = zoneOffsetMinutes(day * DAY_MS, timeZone);
      dayOffset = atStart === zoneOffsetMinutes((day + 1) * DAY_MS - 1000, timeZone) ? atStart : null;
      dayOffsets.set(day, dayOffset);
    }
    const offset = dayOffset ?? zoneOffsetMinutes(ms, timeZone);
    const wallClock = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000).toISOString().slice(0, 19);
    const size = Math.abs(offset);
    return `${wallClock}${offset < 0 ? '-' : '+'}${twoDigits(Math.floor(size / 60))}:${twoDigits(size % 60)}`;
  };
}
