import type { Deferral, DonorDeferral } from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { notFound } from '../../errors';
import { findDonor } from '../donations/donations.repository';
import { findDeferralInForce, listDeferralsOfDonor, type DeferralWithNames } from './deferrals.repository';

/** What the deferral screens read (PRODUCT.md 3.7); the changes are defer-donor.ts and lift-deferral.ts. */

export function toDeferral(row: DeferralWithNames, today: string): Deferral {
  return {
    id: row.id,
    donor_id: row.donor_id,
    type: row.type,
    until: row.until,
    reason: row.reason,
    source: row.source,
    donation_id: row.donation_id,
    created_by: row.created_by,
    created_at: row.created_at,
    active: row.lifted_at === null && (row.type === 'permanent' || (row.until !== null && row.until > today)),
    lifted_at: row.lifted_at,
    lifted_by: row.lifted_by,
    lift_reason: row.lift_reason,
  };
}

export async function listDonorDeferrals(ctx: AppContext, donorId: number): Promise<Deferral[]> {
  const [donor, rows] = await Promise.all([findDonor(ctx.db, donorId), listDeferralsOfDonor(ctx.db, donorId)]);
  if (!donor) throw notFound('Donor not found');
  const today = ctx.clock.today();
  return rows.map((row) => toDeferral(row, today));
}

/** The deferral in force on `date`, as the donor may see it (never its reason). */
export async function deferralInForce(
  db: DatabaseOrTransaction,
  donorId: number,
  date: string,
): Promise<DonorDeferral | null> {
  const row = await findDeferralInForce(db, donorId, date);
  return row ? { type: row.type, until: row.until } : null;
}

export const deferralNotFound = () => notFound('Deferral not found');
