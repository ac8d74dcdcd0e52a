import type { Transaction } from 'kysely';
import type { DeferralSource, DeferralType, NewDeferralResult } from '@bloodbank/shared/donation-lifecycle';
import type { DB } from '../../db/types';
import type { Principal } from '../../plugins/access';
import { recordActivity } from '../activity/activity.repository';
import type { AppContext } from '../../context';
import { recordAudit } from '../audit/audit.repository';
import { deferralLiftedText, deferredText, messagePlace, messages, type DonationInterval } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { cancelPendingBookingByStaff, donationActivityMessages } from '../donations/donation-activity';
import { findBookingFacts, findPendingBookingDate } from '../donations/donations.repository';
import { intervalEndsOn } from '../donations/eligibility';
import { findDeferral, findDeferralInForce, insertDeferral } from './deferrals.repository';
import { findSiteRow } from '../sites/sites.repository';
import { toDeferral } from './deferrals.service';

export const DEFERRAL_ACTIVITY_KINDS = { set: 'deferral_set', lifted: 'deferral_lifted' } as const;

/**
 * The donor's feed says that they are deferred and until when, never why; and from when they can
 * book, which the donation interval may put later than the deferral's end.
 */
export const deferralActivityMessages = {
  set: deferredText,
  lifted: deferralLiftedText,
  /** Another deferral is still in force: the donor must not read that they can book. */
  liftedStillDeferred: (inForce: { type: DeferralType; until: string | null }, interval: DonationInterval, standingBooking: string | null) =>
    `One of your deferrals was lifted. ${deferredText(inForce, interval, standingBooking)}`,
};

/**
 * What the messages about a donor's deferrals need of their donations, in one read
 * (findBookingFacts): the donation interval as they name it, and whether a booking is pending.
 */
export async function deferralMessageFacts(
  ctx: AppContext,
  db: Transaction<DB>,
  donorId: number,
): Promise<{ interval: DonationInterval; booked: boolean }> {
  const days = ctx.config.donationIntervalDays;
  const facts = await findBookingFacts(db, donorId);
  return { interval: { from: intervalEndsOn(facts.lastCollection, days), days }, booked: facts.pending };
}

export interface NewDeferral {
  donorId: number;
  type: DeferralType;
  /** The first day the donor may donate again; null when permanent. */
  until: string | null;
  reason: string;
  source: DeferralSource;
  donationId: number | null;
}

/**
 * Defers a donor (PRODUCT.md 3.7), inside the caller's transaction: by hand (defer-donor.ts), by a
 * failed screening (donations/collect-donation.ts) or by a reactive test
 * (donations/record-test-results.ts). The donor's feed and the audit log are written with it, and
 * a pending booking on a day it covers is cancelled.
 * Answers the deferral as staff see it (`today` decides whether it is in force). The caller has
 * locked the donor (lockDonor in donations.repository.ts) before touching any of their donations.
 */
export async function recordDeferral(
  ctx: AppContext,
  trx: Transaction<DB>,
  admin: Principal,
  deferral: NewDeferral,
  when: { at: string; today: string },
): Promise<NewDeferralResult> {
  const { at } = when;
  const { interval, booked } = await deferralMessageFacts(ctx, trx, deferral.donorId);
  const id = await insertDeferral(trx, {
    donor_id: deferral.donorId,
    type: deferral.type,
    until: deferral.type === 'permanent' ? null : deferral.until,
    reason: deferral.reason,
    source: deferral.source,
    donation_id: deferral.donationId,
    created_by: admin.id,
    created_at: at,
  });
  // What the donor is told is the deferral that lasts longest now, this one or one already in force
  // (a permanent one wins): a short deferral must not invite a booking a longer one refuses.
  const longest = (await findDeferralInForce(trx, deferral.donorId, when.today)) ?? deferral;
  const longestUntil = longest.type === 'permanent' ? null : longest.until;
  await recordAudit(trx, {
    actorId: admin.id,
    actor: admin.username,
    action: 'deferral.created',
    entity: 'deferral',
    entityId: id,
    after: {
      donor_id: deferral.donorId,
      type: deferral.type,
      until: deferral.until,
      reason: deferral.reason,
      source: deferral.source,
      donation_id: deferral.donationId,
    },
    at,
  });
  // A booking on a day the deferral covers can never be collected: cancelled now, so its place in
  // the slot is free and staff do not expect the donor (a failed screening has already moved its own).
  const until = deferral.type === 'permanent' ? null : deferral.until;
  const cancelled = await cancelPendingBookingByStaff(trx, admin, deferral.donorId, {
    reason: 'The donor was deferred.',
    bookedBefore: until,
    feedMessage: donationActivityMessages.cancelledByDeferral,
    cause: { deferral_id: id },
    at,
  });
  // A booking on or after the deferral's end stands: the donor is told so, not invited to book.
  const standing = booked && !cancelled ? await findPendingBookingDate(trx, deferral.donorId) : null;
  await recordActivity(trx, {
    userId: deferral.donorId,
    kind: DEFERRAL_ACTIVITY_KINDS.set,
    message: deferralActivityMessages.set(longest, interval, standing),
    at,
  });
  // A test's deferral is told through the follow-up message alone (PRODUCT.md 3.2).
  if (deferral.source !== 'test') {
    // The cancelled booking by its time and place too, as the booking's own messages named it.
    const site = cancelled?.site_id != null ? await findSiteRow(trx, cancelled.site_id) : undefined;
    const cancelledPlace = site && cancelled?.slot != null ? messagePlace({ site, slot: cancelled.slot }) : null;
    const bookings = { cancelled: cancelled?.donation_date, cancelledPlace, standing };
    await notify(ctx, trx, deferral.donorId, messages.deferralSet(longestUntil, interval, bookings), at);
  }
  const row = await findDeferral(trx, id);
  if (!row) throw new Error('deferral missing right after it was recorded');
  const cancelledBooking = cancelled ? { id: cancelled.id, date: cancelled.donation_date } : null;
  return { ...toDeferral(row, when.today), cancelled_booking: cancelledBooking };
}
