import { MESSAGES } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import type { DonorDeferral } from '@bloodbank/shared/donation-lifecycle';
import type { DatabaseOrTransaction } from '../../db/database';
import { deferralInForce } from '../deferrals/deferrals.service';
import { findLastCollectionDate } from './donations.repository';

/**
 * Whether a donor may give blood on a day (PRODUCT.md 3.2, 3.7): not before the donation interval
 * has passed since their last collected donation, and not while a deferral is in force. Enforced by
 * book-donation.ts; shown on the donor dashboard (donations.service.ts).
 */

/** First day the donation interval allows after the last collection (`lastCollection`), or null if they never gave blood. */
export const intervalEndsOn = (lastCollection: string | null, intervalDays: number): string | null =>
  lastCollection ? addDays(lastCollection, intervalDays) : null;

/** First day a donor may donate after their last collected donation, or null if they never gave blood. */
export async function eligibleFromDate(
  db: DatabaseOrTransaction,
  donorId: number,
  intervalDays: number,
): Promise<string | null> {
  return intervalEndsOn(await findLastCollectionDate(db, donorId), intervalDays);
}

export type Ineligibility =
  | { rule: 'deferred'; deferral: DonorDeferral; message: string }
  | { rule: 'interval'; from: string; message: string };

/**
 * Why the donor may not give blood on `date`, or null when they may. A deferral speaks first.
 * `lastCollection` is the day they last gave blood, which the booking has read already.
 */
export async function ineligibilityOn(
  db: DatabaseOrTransaction,
  donorId: number,
  date: string,
  interval: { days: number; lastCollection: string | null },
): Promise<Ineligibility | null> {
  const deferral = await deferralInForce(db, donorId, date);
  const intervalFrom = intervalEndsOn(interval.lastCollection, interval.days);
  if (deferral) {
    const message = deferral.until ? MESSAGES.deferredUntil(deferral.until) : MESSAGES.deferredPermanently;
    return { rule: 'deferred', deferral, message };
  }
  if (intervalFrom && date < intervalFrom) return { rule: 'interval', from: intervalFrom, message: MESSAGES.donateAgainFrom(intervalFrom) };
  return null;
}
