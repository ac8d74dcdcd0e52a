import { WEEKDAYS, type Weekday, type WeeklyHours } from '@bloodbank/shared/sites';
import { isValidIsoDate } from '@bloodbank/shared/dates';
import { capitalize } from './format';

/**
 * How a donation site's week reads (PRODUCT.md 3.6), for staff and donors alike: runs of days with
 * the same hours are joined, "Mon–Fri 08:00–16:00 · Sat 09:00–13:00".
 */

const SHORT_NAMES: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

export function weekdayName(day: Weekday): string {
  return capitalize(day);
}

/** Each run of days with the same hours: ["Mon–Fri 08:00–16:00", "Sat 09:00–13:00"]; empty when no day opens. */
export function openingHoursRuns(hours: WeeklyHours): string[] {
  const runs: { first: Weekday; last: Weekday; open: string; close: string }[] = [];
  for (const day of WEEKDAYS) {
    const today = hours[day];
    if (!today) continue;
    const previous = runs.at(-1);
    const follows = previous && WEEKDAYS.indexOf(previous.last) === WEEKDAYS.indexOf(day) - 1;
    if (previous && follows && previous.open === today.open && previous.close === today.close) {
      previous.last = day;
    } else {
      runs.push({ first: day, last: day, open: today.open, close: today.close });
    }
  }
  return runs.map((run) => {
    const days =
      run.first === run.last ? SHORT_NAMES[run.first] : `${SHORT_NAMES[run.first]}–${SHORT_NAMES[run.last]}`;
    return `${days} ${run.open}–${run.close}`;
  });
}

/** The weekday of a `YYYY-MM-DD` date (a calendar date: read in UTC, as everywhere). */
export function weekdayOf(isoDate: string): Weekday | null {
  if (!isValidIsoDate(isoDate)) return null;
  const sundayFirst = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7] ?? null;
}

/** "09:15 (2 places left)". */
export function slotLabel(slot: { time: string; available: number }): string {
  return `${slot.time} (${slot.available} ${slot.available === 1 ? 'place' : 'places'} left)`;
}
