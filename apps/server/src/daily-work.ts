import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context';
import { markNoShows } from './modules/donations/mark-no-shows';
import { sendAppointmentReminders } from './modules/notifications/appointment-reminders';
import { sendDailyMessages } from './modules/notifications/daily-messages';

declare module 'fastify' {
  interface FastifyInstance {
    /** One run of the daily work now (the seeds run it as their simulated days pass; tests call it). */
    runDailyWork(): Promise<DailyWorkReport>;
    /** Runs every due job of the queue now (tests; the server runs them in the background). */
    runJobs(): Promise<{ sent: number; failed: number }>;
  }
}

export interface DailyWorkReport {
  /** Bookings whose day passed, marked as no-shows. */
  noShows: number;
  /** Reminders sent for tomorrow's bookings not reminded yet (every run: a booking made after the morning's gets one too). */
  reminders: number;
  /** Today's messages ("you can donate again", expired units), or null when today's were sent already (by any instance). */
  messages: { eligibleAgain: number; expiredUnits: number } | null;
}

/** One run of every step, each catching up on whatever is due however long ago. */
export async function runDailyWork(ctx: AppContext): Promise<DailyWorkReport> {
  const noShows = await markNoShows(ctx);
  const reminders = await sendAppointmentReminders(ctx);
  return { noShows, reminders, messages: await sendDailyMessages(ctx) };
}

/** How often the daily work looks for something to do: each step is one cheap indexed query when there is nothing. */
export const DAILY_WORK_EVERY_MS = 15 * 60_000;

/**
 * The work that follows the calendar rather than a request (PRODUCT.md 3.6, 3.8): bookings whose
 * day has passed become no-shows; tomorrow's bookings are reminded; once a day, on one instance, "you can donate again". It runs when the server starts (catching up after any downtime) and every
 * 15 minutes; each step is a conditional update, so instances running it at once do each change
 * once. A failure (the database away) is logged and retried at the next run; it never ends the process.
 */
export function startDailyWork(ctx: AppContext, log: FastifyBaseLogger, everyMs = DAILY_WORK_EVERY_MS): { stop(): void } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= (async () => {
      try {
        const { noShows, reminders, messages } = await runDailyWork(ctx);
        if (noShows > 0) log.info({ noShows }, 'daily work: bookings whose day passed marked as no-shows');
        if (reminders > 0) log.info({ reminders }, "daily work: reminders sent for tomorrow's bookings");
        if (messages) log.info(messages, "daily work: today's eligibility and expired-units messages sent");
      } catch (error) {
        // One line, no stack: the database outage monitor tells the rest.
        log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'daily work failed; it runs again at the next turn');
      } finally {
        running = undefined;
      }
    })();
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
