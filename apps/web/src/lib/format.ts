/**
 * How every screen writes dates, counts and names. Calendar dates (`YYYY-MM-DD`) have no time zone
 * and are read and written in UTC, so no browser shows one a day early; instants (ISO-8601) are
 * shown in the reader's own zone, except a time of day beside a slot's (formatBankTimeOfDay).
 */
import { isValidIsoDate } from '@bloodbank/shared/dates';
import { knownBankTimeZone } from './bank-today';

/**
 * British English short months, three letters each as the server's messages write them: recent ICU
 * data (Chrome, Node 22+) writes September "Sept" in en-GB, so one screen said "3 Sept" beside a
 * message saying "3 Sep".
 */
function threeLetterMonths(options: Intl.DateTimeFormatOptions): { format: (date: Date) => string } {
  const format = new Intl.DateTimeFormat('en-GB', options);
  return { format: (date) => format.format(date).replace(/\bSept\b/, 'Sep') };
}

const dayFormat = threeLetterMonths({ day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = threeLetterMonths({ day: 'numeric', month: 'short', timeZone: 'UTC' });
const localDayFormat = threeLetterMonths({ day: 'numeric', month: 'short', year: 'numeric' });
const instantFormat = threeLetterMonths({
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A calendar date, e.g. "24 Nov 2026"; "—" when there is none. */
export function formatDate(isoDate: string | null | undefined): string {
  if (!isoDate) return '—';
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : dayFormat.format(date);
}

/**
 * A sentence with its calendar dates written as every screen writes them: the API's messages are
 * binding with `YYYY-MM-DD` dates in them (PRODUCT.md), the screens say "15 Jan 2027".
 */
export function readableDates(text: string): string {
  // Only real dates: the calendar would roll "2026-02-30" on to 2 Mar.
  return text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (isoDate) =>
    isValidIsoDate(isoDate) ? formatDate(isoDate) : isoDate,
  );
}

/** A calendar date without the year, for chart axes: "24 Nov". */
export function formatShortDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : shortDayFormat.format(date);
}

/** An instant as the day it was in the reader's zone: "21 Nov 2026". */
export function formatInstantDate(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : localDayFormat.format(date);
}

/** An instant in the reader's zone with the time: "21 Nov 2026, 12:00"; "—" when there is none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : instantFormat.format(date);
}

const bankClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as the time on the bank's clocks, "08:55": beside a slot's time, which is the bank's
 * (a site's day list), the reader's own zone would put an arrival hours away from its slot.
 */
export function formatBankTimeOfDay(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  const zone = knownBankTimeZone() ?? '';
  let clock = bankClocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone || undefined,
    });
    bankClocks.set(zone, clock);
  }
  return clock.format(date);
}

/** A count as every number on the screens reads: "10,000". */
export function formatCount(count: number): string {
  return count.toLocaleString('en');
}

/** "1 unit", "3 units", "1,200 units". */
export function unitsText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'unit' : 'units'}`;
}

/**
 * Bags by the numbers on their labels: "Unit #7", "Units #12, #14"; past `max` of them, how many
 * more ("Units #1, ..., #10 and 4 more").
 */
export function unitNumbersText(ids: readonly (number | string)[], max = Number.POSITIVE_INFINITY): string {
  const shown = ids
    .slice(0, max)
    .map((id) => `#${id}`)
    .join(', ');
  const more = ids.length > max ? ` and ${ids.length - max} more` : '';
  return `${ids.length === 1 ? 'Unit' : 'Units'} ${shown}${more}`;
}

/** "1 donation", "1,200 points". */
export function pluralize(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

export function fullName(person: { first_name: string; last_name: string; username: string }): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.username;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
