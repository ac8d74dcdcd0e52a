const calendarDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const localDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * '2026-07-13' -> '13 Jul 2026'. A calendar date has no time zone: it is read and written in UTC so
 * no browser shows it a day early.
 */
export function formatCalendarDate(isoDate: string): string {
  const parsed = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? isoDate : calendarDate.format(parsed);
}

/** An instant (ISO-8601 UTC) as the day it was in the browser's zone. */
export function formatInstantDate(instant: string): string {
  const parsed = new Date(instant);
  return Number.isNaN(parsed.getTime()) ? instant : localDate.format(parsed);
}

export function pluralize(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
