import { sql, type Transaction } from 'kysely';
import { CAN_RECEIVE_FROM, type BloodGroup } from '@bloodbank/shared/blood-groups';
import { COLLECTED_DONATION_STATUSES } from '@bloodbank/shared/donation';
import { addDays } from '@bloodbank/shared/dates';
import { CALLOUT_QUIET_DAYS } from '@bloodbank/shared/notifications';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import { notify } from '../notifications/notify';
import { countStockByGroup } from '../inventory/inventory.repository';
import { noDeferralInForce } from '../deferrals/deferrals.repository';

/** A low-stock call-out for a group is raised at most once in this many hours (each donor is told once in 14 days anyway). */
const AUTOMATIC_CALLOUT_EVERY_HOURS = 24;

/** Advisory-lock key for "choosing whom a call-out tells" (any constant int8 works). */
const CALLOUTS_LOCK = 0x43616c6c;

/**
 * Makes this transaction the only one, across every server process, choosing call-out recipients
 * until it ends (PostgreSQL; SQLite already runs one write transaction at a time). Without it two
 * call-outs on two instances (staff's, or two approvals of different groups) each read that nobody
 * was told and tell the same donors twice, against "at most once in 14 days". Taken twice in one
 * transaction, it is held once more: harmless.
 */
async function lockCallouts(ctx: AppContext, trx: Transaction<DB>): Promise<void> {
  if (ctx.engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${sql.lit(CALLOUTS_LOCK)}) as callouts_lock`.execute(trx);
}

/**
 * A low-stock call-out (PRODUCT.md 3.8): the donors who can help are told that their blood is
 * needed. Who is told: active donors who want call-outs, whose blood can be given to `bloodgroup`
 * (red-cell compatibility), who may donate today (the interval since their last collection has
 * passed, no deferral in force, nothing booked), and who were not told of any call-out in the last
 * 14 days. Inside the caller's transaction, so the call-out and its messages commit together.
 * Answers the call-out's id and how many were told.
 */
export async function sendCallout(
  ctx: AppContext,
  trx: Transaction<DB>,
  callout: { bloodgroup: BloodGroup; reason: 'low_stock' | 'staff'; createdBy: number | null },
  at: string,
): Promise<{ id: number; notified: number }> {
  await lockCallouts(ctx, trx);
  const today = ctx.clock.today();
  const { id } = await trx
    .insertInto('callouts')
    .values({ bloodgroup: callout.bloodgroup, reason: callout.reason, created_by: callout.createdBy, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const quietSince = new Date(Date.parse(at) - CALLOUT_QUIET_DAYS * 86_400_000).toISOString();
  const lastCollectionBy = addDays(today, -ctx.config.donationIntervalDays);
  const donors = await trx
    .selectFrom('users')
    .select(['users.id', 'users.bloodgroup'])
    .where('users.role', '=', 'DONOR')
    .where('users.is_active', '=', 1)
    .where('users.callouts', '=', 1)
    .where('users.bloodgroup', 'in', [...CAN_RECEIVE_FROM[callout.bloodgroup]])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('donations')
            .select(sql`1`.as('one'))
            .whereRef('donations.donor_id', '=', 'users.id')
            .where((donation) =>
              donation.or([
                donation('donations.status', '=', 'pending'),
                donation.and([donation('donations.status', 'in', COLLECTED_DONATION_STATUSES), donation('donations.collected_on', '>', lastCollectionBy)]),
              ]),
            ),
        ),
      ),
    )
    .where(noDeferralInForce('users.id', today))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('callout_recipients')
            .select(sql`1`.as('one'))
            .whereRef('callout_recipients.donor_id', '=', 'users.id')
            .where('callout_recipients.notified_at', '>', quietSince),
        ),
      ),
    )
    .orderBy('users.id')
    .execute();
  for (const donor of donors) {
    await trx.insertInto('callout_recipients').values({ callout_id: id, donor_id: donor.id, notified_at: at }).execute();
    await notify(
      ctx,
      trx,
      donor.id,
      {
        kind: 'callout',
        title: `Blood for ${callout.bloodgroup} patients is needed`,
        body: `The blood bank is running short of blood for ${callout.bloodgroup} patients, and your ${donor.bloodgroup} blood can help them. Please book a donation soon: it can save up to three lives.`,
        path: '/donor/donate',
      },
      at,
    );
  }
  await trx.updateTable('callouts').set({ notified: donors.length }).where('id', '=', id).execute();
  return { id, notified: donors.length };
}

/**
 * After units left the shelf (a request approved, units discarded): each of `groups` whose red-cell
 * stock is now under the low-stock threshold raises a call-out, unless one was raised for that
 * group in the last day. Inside the transaction that took the units.
 */
export async function calloutWhereStockIsLow(ctx: AppContext, trx: Transaction<DB>, groups: readonly BloodGroup[], at: string): Promise<void> {
  const stock = await countStockByGroup(trx, ctx.clock.today());
  for (const bloodgroup of new Set(groups)) {
    if (stock[bloodgroup] >= ctx.config.lowStockThreshold) continue;
    // Before reading the last call-out: two approvals on two instances then raise one a day, not two.
    await lockCallouts(ctx, trx);
    const recent = await trx
      .selectFrom('callouts')
      .select('id')
      .where('bloodgroup', '=', bloodgroup)
      .where('created_at', '>', new Date(Date.parse(at) - AUTOMATIC_CALLOUT_EVERY_HOURS * 3_600_000).toISOString())
      .executeTakeFirst();
    if (!recent) await sendCallout(ctx, trx, { bloodgroup, reason: 'low_stock', createdBy: null }, at);
  }
}
