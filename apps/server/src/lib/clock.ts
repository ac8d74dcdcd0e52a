import { todayIn } from '@bloodbank/shared/dates';

/** Time as the app sees it; tests pass a fixed clock to cross day boundaries without waiting. */
export interface Clock {
  now(): Date;
  /** The blood bank's calendar day, YYYY-MM-DD. */
  today(): string;
}

export function createClock(timezone: string, now: () => Date = () => new Date()): Clock {
  return { now, today: () => todayIn(timezone, now()) };
}
