import { describe, expect, it } from 'vitest';
import { timeAgo } from './time-ago';

/** An instant on the reader's own clock (the test runner's zone), as the notification list reads it. */
const local = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute);

describe('timeAgo: when a notification came, as people say it', () => {
  it('says minutes and hours within a day', () => {
    const now = local(14, 12);
    expect(timeAgo(local(14, 11, 59).toISOString(), now)).toBe('1 minute ago');
    expect(timeAgo(local(14, 9).toISOString(), now)).toBe('3 hours ago');
    expect(timeAgo(local(13, 13).toISOString(), now)).toBe('23 hours ago');
  });

  it("counts days by the reader's calendar: Saturday morning is 2 days before Monday just after midnight", () => {
    const mondayNight = local(14, 0, 30);
    expect(timeAgo(local(12, 8, 15).toISOString(), mondayNight)).toBe('2 days ago');
    expect(timeAgo(local(13, 0, 15).toISOString(), mondayNight)).toBe('yesterday');
    expect(timeAgo(local(8, 9).toISOString(), local(14, 8))).toBe('6 days ago');
  });
});
