import { sql, type Transaction } from 'kysely';
import type { DatabaseOrTransaction, Engine } from '../../db/database';
import type { DB } from '../../db/types';
import { insertAtCommit } from '../../db/rows-at-commit';

/**
 * The persistent queue (PRODUCT.md 3.8; docs/decisions/0010): a job is a row written in the same
 * transaction as the change that causes it, so it exists exactly when that change committed. A
 * worker claims due jobs by setting `locked_until` (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so two
 * instances never claim the same row; SQLite: one writer at a time), runs them after the claim has
 * committed, and marks each done, or sets it to run again later with a growing delay.
 */

export type JobKind = 'email';

/** How long a claimed job is its worker's: past it, another instance may take the job over. */
export const CLAIM_SECONDS = 120;
/**
 * After this many failed attempts a job is given up (failed_at) and logged: about two days of retries
 * (30 s doubling to 6 h, then every 6 h), so a mail server down over a weekend day delays mail only.
 */
export const MAX_ATTEMPTS = 18;

/** Seconds before attempt n + 1: 30 s, 1 min, 2 min ... capped at 6 hours. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 6 * 3600);
}

export async function enqueueJob(trx: Transaction<DB>, kind: JobKind, payload: unknown, at: string): Promise<void> {
  await insertAtCommit(trx, 'jobs', { kind, payload: JSON.stringify(payload), run_after: at, created_at: at });
}

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  created_at: string;
}

/** Claims up to `limit` due jobs for CLAIM_SECONDS, counting the attempt; oldest first. */
export async function claimDueJobs(trx: Transaction<DB>, engine: Engine, now: Date, limit: number): Promise<ClaimedJob[]> {
  const at = now.toISOString();
  let due = trx
    .selectFrom('jobs')
    .select('id')
    .where('done_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('run_after', '<=', at)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
    .orderBy('run_after')
    .orderBy('id')
    .limit(limit);
  if (engine === 'postgres') due = due.forUpdate().skipLocked();
  const ids = (await due.execute()).map((row) => row.id);
  if (ids.length === 0) return [];
  const claimed = await trx
    .updateTable('jobs')
    .set((eb) => ({ locked_until: new Date(now.getTime() + CLAIM_SECONDS * 1000).toISOString(), attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .returning(['id', 'kind', 'payload', 'attempts', 'created_at'])
    .execute();
  // RETURNING lists rows in the order the table holds them, not the select's (PostgreSQL put a
  // rewritten row last): put them back in queue order, which the worker keeps for each recipient
  // within a claim. (Across claims it is not promised: a failed job retried after its backoff
  // comes after messages queued meanwhile.)
  const position = new Map(ids.map((id, index) => [id, index]));
  return claimed.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

/**
 * Sent: the row stays as the record of when, and forgets the message. A message holds a person's
 * name and address, and a reset link holds the very token that the database otherwise keeps only
 * hashed: a copy of the database must not be able to use it.
 */
export async function markJobsDone(db: DatabaseOrTransaction, ids: readonly number[], at: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ done_at: at, locked_until: null, last_error: null, payload: SENT_PAYLOAD })
    .where('id', 'in', ids)
    .execute();
}

/** What a sent job's payload becomes. */
export const SENT_PAYLOAD = '';

/** A failed attempt: run again after the backoff, or give up after MAX_ATTEMPTS (at once when `giveUp`: it cannot succeed). */
export async function markJobFailed(
  db: DatabaseOrTransaction,
  job: ClaimedJob,
  error: string,
  now: Date,
  giveUp = false,
): Promise<void> {
  const givingUp = giveUp || job.attempts >= MAX_ATTEMPTS;
  await db
    .updateTable('jobs')
    .set({
      locked_until: null,
      last_error: error.slice(0, 500),
      run_after: new Date(now.getTime() + retryDelaySeconds(job.attempts) * 1000).toISOString(),
      failed_at: givingUp ? now.toISOString() : null,
      // Given up, it will never be sent: forgotten as a sent one is (the log keeps why it failed).
      ...(givingUp ? { payload: SENT_PAYLOAD } : {}),
    })
    .where('id', '=', job.id)
    .execute();
}

/** Jobs not yet done (the health of the queue; tests wait on it). */
export async function countPendingJobs(db: DatabaseOrTransaction): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select(sql<number>`count(*)`.as('count'))
    .where('done_at', 'is', null)
    .where('failed_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
