/** Shared by playwright.config.ts (which starts the server) and the specs (which sign in). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-admin-password' } as const;

/**
 * The bank's time zone for the browser suite, read when asked (never at import): the server's
 * TIMEZONE, the browsers' zone and the specs' own process. An Etc/GMT zone where the run starts
 * near noon: the specs book for today, pick today's free times and collect on the booked day, and
 * a run that crossed the bank's midnight found no time left to book (a run at 23:50 UTC did).
 * playwright.config.ts picks it once and the workers inherit it.
 */
export const e2eTimezone = (): string => process.env.E2E_TIMEZONE ?? 'UTC';

/** The Etc/GMT zone (UTC-12 to UTC+12; POSIX names carry the sign inverted) where it is about noon at `now`. */
export function zoneNearNoon(now: Date = new Date()): string {
  const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
  const offset = Math.round(12 - utcHours);
  if (offset === 0) return 'UTC';
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
