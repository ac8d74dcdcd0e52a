import type { Kysely } from 'kysely';
import { addDays } from '@bloodbank/shared/dates';

/**
 * The reminder the day before an appointment is sent per booking, at any turn of the daily work,
 * not only in the day's first run (notifications/appointment-reminders.ts): a booking made or moved
 * to tomorrow after that run was never reminded. `reminded_for` holds the day a booking was
 * reminded for. Frozen once shipped.
 *
 * The bookings that the last daily run has reminded already are marked, so they are not reminded
 * twice: those of the day after it that existed when it ran (one booked since is left to the new
 * step), and any of an earlier day still pending.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('donations').addColumn('reminded_for', 'text').execute();
  const last = await db
    .selectFrom('daily_runs')
    .select(['day', 'started_at'])
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return;
  const lastDay = last.day as string;
  await db
    .updateTable('donations')
    .set((eb) => ({ reminded_for: eb.ref('donation_date') }))
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb('donation_date', '<=', lastDay),
        eb.and([
          eb('donation_date', '=', addDays(lastDay, 1)),
          eb('created_at', '<=', last.started_at as string),
        ]),
      ]),
    )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('donations').dropColumn('reminded_for').execute();
}
