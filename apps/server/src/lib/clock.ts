import { timeIn, todayIn } from '@bloodbank/shared/dates';

/** Time as the app sees it; tests pass a fixed clock to cross day boundaries without waiting. */
export interface Clock {
  now(): Date;
  /** The blood bank's calendar day, YYYY-MM-DD. */
  today(): string;
  /** The blood bank's time of day, HH:MM (what "a slot has begun" is measured against). */
  time(): string;
}

const MINUTE_MS = 60_000;

export function createClock(timezone: string, now: () => Date = () => new Date()): Clock {
  // Formatting a date in a time zone costs microseconds, and most requests ask. A day (in any zone;
  // offsets are whole minutes) starts on a minute boundary, so the day found for a minute holds
  // for all of it.
  let minute = Number.NaN;
  let day = '';
  return {
    now,
    today: () => {
      const instant = now();
      const thisMinute = Math.floor(instant.getTime() / MINUTE_MS);
      if (thisMinute !== minute) {
        day = todayIn(timezone, instant);
        minute = thisMinute;
      }
      return day;
    },
    time: () => timeIn(timezone, now()),
  };
}
