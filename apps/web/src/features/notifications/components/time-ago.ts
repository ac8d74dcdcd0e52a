import { daysBetween, todayIn } from '@bloodbank/shared/dates';
import { formatDateTime } from '@/lib/format';

const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });

/**
 * When a notification came, as people say it: "just now", "5 minutes ago", "3 hours ago",
 * "yesterday"; older than a week, the local date and time ("21 Nov 2026, 12:00").
 */
export function timeAgo(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  // Days as the reader's calendar counts them: on Monday at 00:30, Saturday's 08:15 (40 hours
  // before) was 2 days ago, not "yesterday".
  const days = daysBetween(todayIn(undefined, at), todayIn(undefined, now));
  if (days < 7) return relative.format(-days, 'day');
  return formatDateTime(iso);
}
