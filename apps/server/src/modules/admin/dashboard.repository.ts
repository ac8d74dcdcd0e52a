import { sql } from 'kysely';
import type { DatabaseOrTransaction } from '../../db/database';

/** Both "awaiting a decision" counts in one round trip. */
/** What waits for staff: bookings (all, and those due by `today`), donations awaiting results, requests. */
export async function countPendingDecisions(db: DatabaseOrTransaction, today: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('donations')
        .select(eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'pending')
        .as('donations'),
      eb
        .selectFrom('donations')
        .select(eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'pending')
        .where('donation_date', '<=', today)
        .as('bookings_due'),
      eb
        .selectFrom('donations')
        .select(eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'collected')
        .as('awaiting_results'),
      eb
        .selectFrom('blood_requests')
        .select(eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'pending')
        .as('requests'),
    ])
    .executeTakeFirstOrThrow();
  return {
    donations: Number(row.donations),
    bookingsDue: Number(row.bookings_due),
    awaitingResults: Number(row.awaiting_results),
    requests: Number(row.requests),
  };
}

/**
 * How many rows of a table were created in each of the given periods, counted by the database.
 * `boundaries` are ascending ISO instants: period i is [boundaries[i], boundaries[i + 1]).
 * Returns one count per period.
 */
export async function countCreatedPerPeriod(
  db: DatabaseOrTransaction,
  table: 'donations' | 'blood_requests',
  boundaries: readonly string[],
): Promise<number[]> {
  const periods = boundaries.length - 1;
  if (periods < 1) return [];
  const first = boundaries[0] as string;
  const last = boundaries[periods] as string;
  const bucket =
    periods === 1
      ? sql<number>`0`
      : sql<number>`case ${sql.join(
          boundaries.slice(1, periods).map((end, index) => sql`when created_at < ${end} then ${sql.lit(index)}`),
          sql` `,
        )} else ${sql.lit(periods - 1)} end`;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom(table)
        .select(bucket.as('period'))
        .where('created_at', '>=', first)
        .where('created_at', '<', last)
        .as('created'),
    )
    .select(['created.period', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('created.period')
    .execute();
  const counts = Array.from({ length: periods }, () => 0);
  for (const row of rows) counts[Number(row.period)] = Number(row.count);
  return counts;
}
