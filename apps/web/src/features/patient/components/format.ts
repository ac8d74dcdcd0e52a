/** A `YYYY-MM-DD` calendar date as people read it ("12 Mar 2026"), the same day in every time zone. */
const dateFormatter = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

export function formatDate(isoDate: string): string {
  const parsed = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? isoDate : dateFormatter.format(parsed);
}

export function formatUnits(units: number): string {
  return `${units} ${units === 1 ? 'unit' : 'units'}`;
}
