import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { BloodUnitRow, DB } from '../../db/types';
import { findDonationOwnerAndStatus, lockDonor } from '../donations/donations.repository';
import { findUnitsByIds } from './inventory.repository';

/**
 * A unit that came from a donation, read again after its donor's row is locked (lockDonor), on
 * PostgreSQL. Test results and lookback holds change a donor's units under that lock
 * (record-test-results.ts), so a write that decides from a unit's status (processing it, releasing
 * its hold) takes the same lock first: it then sees the status they left, and they see the units it
 * made. Without it, two instances could process a unit a lookback had just held into components
 * that were in stock, or release a hold back into a testing that had just ended. Lock order: the
 * donor, then the donation and its units, as every donor write. SQLite's writes take turns, so
 * `seen` is already current there. Undefined when the unit no longer exists.
 */
export async function withDonorLocked(ctx: AppContext, trx: Transaction<DB>, seen: BloodUnitRow): Promise<BloodUnitRow | undefined> {
  if (ctx.engine !== 'postgres' || seen.donation_id === null) return seen;
  const donation = await findDonationOwnerAndStatus(trx, seen.donation_id);
  if (donation) await lockDonor(trx, donation.donor_id, ctx.engine);
  const [current] = await findUnitsByIds(trx, [seen.id]);
  return current;
}
