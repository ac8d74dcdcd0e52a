import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context';
import { markNoShows } from './modules/donations/mark-no-shows';

declare module 'fastify' {
  interface FastifyInstance {
    /** One run of the daily work now (the seeds run it as their simulated days pass; tests call it). */
    runDailyWork(): Promise<DailyWorkReport>;
  }
}

export interface DailyWorkReport {
  /** Bookings whose day passed, marked as no-shows. */
  noShows: number;
}

/** One run of every step, each catching up on whatever is due however long ago. */
export async function runDailyWork(ctx: AppContext): Promise<DailyWorkReport> {
  return { noShows: await markNoShows(ctx) };
}

/** How often the daily work looks for something to do: each step is one cheap indexed query when there is nothing. */
export const DAILY_WORK_EVERY_MS = 15 * 60_000;

/**
 * The work that follows the calendar rather than a request (PRODUCT.md 3.6): bookings whose day has
 * passed become no-shows. It runs when the server starts (catching up after any downtime) and every
 * 15 minutes; each step is a conditional update, so instances running it at once do each change
 * once. A failure (the database away) is logged and retried at the next run; it never ends the process.
 */
export function startDailyWork(ctx: AppContext, log: FastifyBaseLogger, everyMs = DAILY_WORK_EVERY_MS): { stop(): void } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= (async () => {
      try {
        const { noShows } = await runDailyWork(ctx);
        if (noShows > 0) log.info({ noShows }, 'daily work: bookings whose day passed marked as no-shows');
      } catch (error) {
        log.warn({ err: error }, 'daily work failed; it runs again at the next turn');
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
