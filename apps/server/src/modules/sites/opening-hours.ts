import { TZDate } from '@date-fns/tz';
import { minutesOf, timeOf, WEEKDAYS, type OpeningHours, type Weekday, type WeeklyHours } from '@bloodbank/shared/sites';

/**
 * When a site takes donors (PRODUCT.md 3.6): the rules of its calendar, with no database in sight.
 * Times are `HH:MM` in the blood bank's time zone; a slot is named by its start and lies wholly
 * inside the opening hours (open 08:00-16:00 in 15-minute slots: 08:00 to 15:45).
 */

export interface SiteCalendar {
  hours: WeeklyHours;
  slot_minutes: number;
  closed_dates: readonly string[];
}

/** The weekday of a `YYYY-MM-DD` date (its own calendar, whatever the server's zone). */
export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(day + 6) % 7]!;
}

/** The hours the site keeps on `date`, or null when it is closed (its weekday, or a closed date). */
export function openingHoursOn(site: SiteCalendar, date: string): OpeningHours | null {
  if (site.closed_dates.includes(date)) return null;
  return site.hours[weekdayOf(date)];
}

/** Every slot's start on `date`, earliest first; none when the site is closed. */
export function slotStartsOn(site: SiteCalendar, date: string): string[] {
  const hours = openingHoursOn(site, date);
  if (!hours) return [];
  const starts: string[] = [];
  const close = minutesOf(hours.close);
  for (let start = minutesOf(hours.open); start + site.slot_minutes <= close; start += site.slot_minutes) {
    starts.push(timeOf(start));
  }
  return starts;
}

/**
 * Whether the site is open at `time` on `date`: a booking made there keeps its place though a new
 * slot length no longer starts a slot at its time; a closed day, or a time before opening or from
 * closing on, does not.
 */
export function isOpenAt(site: SiteCalendar, date: string, time: string): boolean {
  const hours = openingHoursOn(site, date);
  return hours !== null && time >= hours.open && time < hours.close;
}

/** Whether `slot` is one of the site's slots on `date`. */
export function isSlotOn(site: SiteCalendar, date: string, slot: string): boolean {
  return slotStartsOn(site, date).includes(slot);
}

/** The slot's end, `HH:MM`. */
export function slotEnd(slot: string, slotMinutes: number): string {
  return timeOf(minutesOf(slot) + slotMinutes);
}

/**
 * Whether a slot can still be booked at `now` (the bank's day and time): any slot of a later day;
 * today, only one that has not begun.
 */
export function slotIsAhead(date: string, slot: string, now: { today: string; time: string }): boolean {
  return date > now.today || (date === now.today && slot > now.time);
}

/**
 * Whether the bank's clocks show `time` on `date` at all: on the night daylight-saving time begins
 * they jump (02:00 to 03:00 in New York), and a 02:30 slot would be booked for an instant that is
 * also 03:30's. A day whose offset does not change (nearly every day, and every day in a zone
 * without daylight-saving time) is answered without looking at the time.
 */
export function localTimeExists(date: string, time: string, timeZone: string): boolean {
  return clockShowsOn(date, timeZone)(time);
}

/** localTimeExists for many times of one day: the day's question asked once. */
export function clockShowsOn(date: string, timeZone: string): (time: string) => boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const offset = (hours: number, minutes: number) => new TZDate(year, month - 1, day, hours, minutes, timeZone).getTimezoneOffset();
  if (offset(0, 0) === offset(23, 59)) return () => true;
  return (time) => {
    const minutes = minutesOf(time);
    const at = new TZDate(year, month - 1, day, Math.floor(minutes / 60), minutes % 60, timeZone);
    return at.getDate() === day && at.getHours() * 60 + at.getMinutes() === minutes;
  };
}
