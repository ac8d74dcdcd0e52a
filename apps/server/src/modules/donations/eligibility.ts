import { DONATION_INTERVAL_DAYS } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import type { DatabaseOrTransaction } from '../../db/database';
import { findLastApprovedDonationDate } from './donations.repository';

/**
 * First day a donor may donate after their last approved donation (PRODUCT.md 3.2: at least
 * DONATION_INTERVAL_DAYS later), or null if none. Enforced by book-donation.ts; shown as the
 * donor dashboard's next eligible date (donations.service.ts).
 */
export async function eligibleFromDate(db: DatabaseOrTransaction, donorId: number): Promise<string | null> {
  const lastApproved = await findLastApprovedDonationDate(db, donorId);
  return lastApproved ? addDays(lastApproved, DONATION_INTERVAL_DAYS) : null;
}
