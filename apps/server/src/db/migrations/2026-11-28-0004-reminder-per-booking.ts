import type { Kysely } from 'kysely';
import { addDays } from '@bloodbank/shared/dates';

/**
 * The reminder the day before an appointment is sent per booking, at any turn of the daily work,
 * not only in the day's first run (notifications/appointment-reminders.ts): a booking made or moved
 * to tomorrow after that run was never reminded. `reminded_for` holds the day a booking was
 * reminded for. Frozen once shipped.
 *
 * The bookings that the last daily run has reminded already (those of the day after it, or any
 * earlier day still pending) are marked, so they are not reminded twice.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('donations').addColumn('reminded_for', 'text').execute();
  const last = await db
    .selectFrom('daily_runs')
    .select((eb) => eb.fn.max('day').as('day'))
    .executeTakeFirst();
  const lastDay = (last?.day as string | null | undefined) ?? null;
  if (!lastDay) return;
  await db
    .updateTable('donations')
    .set((eb) => ({ reminded_for: eb.ref('donation_date') }))
    .where('status', '=', 'pending')
    .where('donation_date', '<=', addDays(lastDay, 1))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('donations').dropColumn('reminded_for').execute();
}
