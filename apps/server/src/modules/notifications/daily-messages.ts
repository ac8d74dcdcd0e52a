import { sql } from 'kysely';
import { COLLECTED_DONATION_STATUSES } from '@bloodbank/shared/donation';
import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import { calloutWhereStockIsLow } from '../callouts/send-callout';
import { groupsWithRedCellsExpiredBetween } from '../inventory/inventory.repository';
import { noDeferralInForce } from '../deferrals/deferrals.repository';
import { noPendingBooking } from '../donations/donations.repository';
import { messages, UNITS_EXPIRED_KIND } from './messages';
import { markStaffNoticesRead } from './notifications.repository';
import { notify } from './notify';

/**
 * The daily messages (PRODUCT.md 3.8): "you can donate again" on a donor's next eligible date (the
 * interval's end or a deferral's, whichever is later: 3.7), and to staff, how many expired units
 * wait to be discarded. (Reminders are per booking: appointment-reminders.ts.)
 * Once per calendar day on exactly one instance: the
 * day is claimed by inserting its row in daily_runs, in the same transaction as the messages, so
 * the claim and what it sends commit together or not at all. After downtime the next run catches
 * up: every eligible date since the last day that ran is told (late rather than never).
 * Answers how many of each were sent, or null when another instance (or an earlier run) had the day.
 */
export async function sendDailyMessages(
  ctx: AppContext,
  today = ctx.clock.today(),
): Promise<{ eligibleAgain: number; expiredUnits: number } | null> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const claimed = await trx
      .insertInto('daily_runs')
      .values({ day: today, started_at: at, finished_at: at })
      .onConflict((conflict) => conflict.column('day').doNothing())
      .returning('day')
      .executeTakeFirst();
    if (!claimed) return null;
    const previous = await trx
      .selectFrom('daily_runs')
      .select((eb) => eb.fn.max('day').as('day'))
      .where('day', '<', today)
      .executeTakeFirst();
    // The first run ever looks back one day only: nobody is told of an eligible date long past.
    const since = previous?.day ?? addDays(today, -1);

    // Eligible again on a day in (since, today]: their last collection was `interval` days before it.
    const interval = ctx.config.donationIntervalDays;
    const eligible = await trx
      .selectFrom('donations')
      .innerJoin('users', 'users.id', 'donations.donor_id')
      .select('donations.donor_id')
      .where('donations.status', 'in', COLLECTED_DONATION_STATUSES)
      .where('users.is_active', '=', 1)
      .where(noPendingBooking('donations.donor_id'))
      .where(noDeferralInForce('donations.donor_id', today))
      .groupBy('donations.donor_id')
      .having((eb) => eb.fn.max('donations.collected_on'), '>', addDays(since, -interval))
      .having((eb) => eb.fn.max('donations.collected_on'), '<=', addDays(today, -interval))
      .execute();
    // Or a deferral that ended in (since, today] (its `until` is their first day back), with nothing
    // else in the way: no other deferral, no booking, and the interval passed (PRODUCT.md 3.7).
    const deferralEnded = await trx
      .selectFrom('deferrals')
      .innerJoin('users', 'users.id', 'deferrals.donor_id')
      .select('deferrals.donor_id')
      .distinct()
      .where('deferrals.type', '=', 'temporary')
      .where('deferrals.lifted_at', 'is', null)
      .where('deferrals.until', '>', since)
      .where('deferrals.until', '<=', today)
      .where('users.is_active', '=', 1)
      .where(noPendingBooking('deferrals.donor_id'))
      .where(noDeferralInForce('deferrals.donor_id', today))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('donations as given')
              .select(sql`1`.as('one'))
              .whereRef('given.donor_id', '=', 'deferrals.donor_id')
              .where('given.status', 'in', COLLECTED_DONATION_STATUSES)
              .where('given.collected_on', '>', addDays(today, -interval)),
          ),
        ),
      )
      .execute();
    // One message each, whichever of the two ended (both may end in the same days).
    const eligibleDonors = new Set([...eligible, ...deferralEnded].map((donor) => donor.donor_id));
    for (const donorId of eligibleDonors) await notify(ctx, trx, donorId, messages.canDonateAgain(), at);

    // The discard list is ready: staff hear how many units on the shelf have expired.
    const expired = await trx
      .selectFrom('blood_units')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'available')
      .where('expires_on', '<', today)
      .executeTakeFirst();
    const expiredUnits = Number(expired?.count ?? 0);
    // Red cells that expired since the last run left the stock: a group they leave short calls its donors (PRODUCT.md 3.8).
    await calloutWhereStockIsLow(ctx, trx, await groupsWithRedCellsExpiredBetween(trx, since, today), at);
    // Today's count replaces yesterday's (staff's bell held one notice a day, 99+ unread); none
    // waiting (discarded one by one, say) leaves nothing to tell.
    await markStaffNoticesRead(trx, UNITS_EXPIRED_KIND, at);
    if (expiredUnits > 0) {
      const admins = await trx.selectFrom('users').select('id').where('role', '=', 'ADMIN').where('is_active', '=', 1).execute();
      for (const admin of admins) await notify(ctx, trx, admin.id, messages.unitsExpired(expiredUnits), at);
    }
    return { eligibleAgain: eligibleDonors.size, expiredUnits };
  });
}
