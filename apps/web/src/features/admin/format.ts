/** How the admin screens write dates, counts and names. */

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const instantFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A calendar date (`YYYY-MM-DD`), e.g. "24 Nov 2026"; read as UTC so no time zone moves it a day. */
export function formatDate(isoDate: string | null | undefined): string {
  if (!isoDate) return '—';
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : dayFormat.format(date);
}

/** A calendar date without the year, for chart axes: "24 Nov". */
export function formatShortDate(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : shortDayFormat.format(date);
}

/** An instant (ISO-8601) in the admin's own time zone: "21 Nov 2026, 12:00". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : instantFormat.format(date);
}

/** "1 unit", "3 units". */
export function unitsText(count: number): string {
  return `${count} ${count === 1 ? 'unit' : 'units'}`;
}

export function fullName(person: { first_name: string; last_name: string; username: string }): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.username;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
