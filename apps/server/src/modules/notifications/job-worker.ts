import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { claimDueJobs, markJobFailed, markJobsDone, type ClaimedJob } from './job-queue';
import type { MailBudget } from './mail-budget';
import { jobMessageId, messageIdDomain, RecipientRefused, type Mailer, type MailMessage } from './mailer';

/** How often an idle worker looks for due jobs (a job written by this instance wakes it at once). */
export const POLL_MS = 1_000;
const BATCH = 20;

export interface JobWorker {
  /** Look for due jobs soon: called after a change that queued some. */
  kick(): void;
  /** Runs every due job now, until none is left; answers how many ran (succeeded or not). */
  runDue(): Promise<{ sent: number; failed: number }>;
  stop(): Promise<void>;
}

/**
 * Runs the queue's jobs (job-queue.ts) in the background of a server: never in a request, so a mail
 * server that is slow or down never slows or fails the request that caused the message. A failed
 * send is retried with backoff; the log says which job failed and why, never the message itself.
 */
export function createJobWorker(
  ctx: AppContext,
  mailer: Mailer,
  log: FastifyBaseLogger,
  options: { background: boolean; budget: MailBudget },
): JobWorker {
  let stopped = false;
  let running: Promise<{ sent: number; failed: number }> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The queue could not be read: said once in the log until it can (the outage monitor tells the rest). */
  let unreadable = false;

  const messageDomain = messageIdDomain(ctx.config.mailFrom);
  const perform = async (job: ClaimedJob, message: MailMessage | Error) => {
    if (message instanceof Error) throw message;
    const { outsideBudget, ...mail } = message;
    // An address past its hour's e-mails (mail-budget.ts): the job is done unsent, the message stays in the app.
    const counted = !outsideBudget;
    if (counted && !(await options.budget.allows(mail.to))) {
      log.warn({ job: job.id }, 'an e-mail was not sent: its address has had its e-mails for this hour');
      return;
    }
    try {
      await mailer.send({ ...mail, messageId: jobMessageId(job, messageDomain) });
    } catch (error) {
      // Not sent: its retry is counted when it goes, not now as well (a mail server down for an
      // hour would otherwise spend the budget on attempts and drop the messages once it is back).
      if (counted) await options.budget.refund(mail.to).catch(() => undefined);
      throw error;
    }
  };

  /**
   * Every claimed job, each one's outcome in order. Messages to different people go out at once (the
   * mail thread renders and sends them side by side); to one person, one after another in the order
   * they were queued, so "you are deferred" never arrives after "you can book again".
   */
  const performAll = async (claimed: readonly ClaimedJob[]): Promise<PromiseSettledResult<void>[]> => {
    const outcomes: PromiseSettledResult<void>[] = [];
    const messages = claimed.map(messageOf);
    const byRecipient = new Map<string, number[]>();
    claimed.forEach((job, index) => {
      const message = messages[index]!;
      const key = message instanceof Error || typeof message.to !== 'string' ? `job ${job.id}` : message.to.toLowerCase();
      const indexes = byRecipient.get(key);
      if (indexes) indexes.push(index);
      else byRecipient.set(key, [index]);
    });
    await Promise.all(
      [...byRecipient.values()].map(async (indexes) => {
        for (const index of indexes) {
          try {
            await perform(claimed[index]!, messages[index]!);
            outcomes[index] = { status: 'fulfilled', value: undefined };
          } catch (reason) {
            outcomes[index] = { status: 'rejected', reason };
          }
        }
      }),
    );
    return outcomes;
  };

  const runDue = (): Promise<{ sent: number; failed: number }> => {
    running ??= (async () => {
      const totals = { sent: 0, failed: 0 };
      try {
        for (;;) {
          const now = ctx.clock.now();
          const claimed = await ctx.writes.run((trx) => claimDueJobs(trx, ctx.engine, now, BATCH));
          if (claimed.length === 0) return totals;
          // Marked done together, in one write once the claimed jobs have run (a crash before it
          // sends those again: delivery is at least once, docs/decisions/0010).
          const outcomes = await performAll(claimed);
          const done: number[] = [];
          for (const [index, job] of claimed.entries()) {
            const outcome = outcomes[index]!;
            if (outcome.status === 'fulfilled') {
              done.push(job.id);
              totals.sent += 1;
              continue;
            }
            const error: unknown = outcome.reason;
            const reason = error instanceof Error ? error.message : String(error);
            const refused = error instanceof RecipientRefused;
            totals.failed += 1;
            log.warn(
              { job: job.id, kind: job.kind, attempts: job.attempts, reason: redact(reason) },
              refused ? 'a queued e-mail was given up: the mail server refused its address for good' : 'a queued job failed; it will be retried',
            );
            await ctx.writes.run((trx) => markJobFailed(trx, job, redact(reason), ctx.clock.now(), refused));
          }
          if (done.length > 0) await ctx.writes.run((trx) => markJobsDone(trx, done, ctx.clock.now().toISOString()));
          // A failed job is due again only after its backoff: one pass per call is enough for them.
          if (totals.failed > 0 && totals.sent === 0) return totals;
        }
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const tick = async () => {
    timer = undefined;
    if (stopped) return;
    try {
      await runDue();
      unreadable = false;
    } catch (error) {
      // The database is away: the jobs wait in it; try again at the next poll. One line, no stack.
      if (!unreadable) log.warn({ reason: redact(error instanceof Error ? error.message : String(error)) }, 'the job queue could not be read; retrying every second');
      unreadable = true;
    }
    schedule(POLL_MS);
  };
  const schedule = (ms: number) => {
    if (stopped || !options.background || timer) return;
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  };
  schedule(0);

  return {
    kick: () => {
      if (!options.background || stopped) return;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // After the commit that queued the job (writes resolve once committed; this runs later still).
      schedule(20);
    },
    runDue,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      await mailer.close();
    },
  };
}

/** An e-mail job's message, read once; or why the job cannot run (another kind of job, a payload that is not JSON): it then fails alone. */
function messageOf(job: ClaimedJob): MailMessage | Error {
  if (job.kind !== 'email') return new Error(`unknown job kind ${job.kind}`);
  let payload: unknown;
  try {
    payload = JSON.parse(job.payload);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  return typeof payload === 'object' && payload !== null ? (payload as MailMessage) : new Error('the payload is not a message');
}

/** An SMTP error may quote the recipient's address: e-mail addresses never reach the log. */
function redact(text: string): string {
  return text.replace(/[^\s<>"']+@[^\s<>"']+/g, '<address>');
}
