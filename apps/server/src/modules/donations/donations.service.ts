import type { AdminDonation, AdminDonationsQuery, Paged } from '@bloodbank/shared/admin';
import { MESSAGES, RECENT_ACTIVITY_LIMIT } from '@bloodbank/shared/constants';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import type { AppContext } from '../../context';
import type { DonationRow } from '../../db/types';
import { listRecentActivities } from '../activity/activity.repository';
import { listUnitIdsOfDonations } from '../inventory/inventory.repository';
import { fullNameOf, type PersonNames } from '../users/users.service';
import { countDonationsByStatus, listDonationsForAdmin, listDonationsOfDonor } from './donations.repository';
import { eligibleFromDate } from './eligibility';

/**
 * What the donation screens read: the donor's list and dashboard, the admin's Manage Donations
 * list. The changes are one file each: book-donation.ts, approve-donation.ts, reject-donation.ts.
 */

export function toDonation(row: DonationRow): Donation {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    unit: row.units,
    date: row.donation_date,
    disease: row.disease,
    lastDonation: row.last_donation,
    status: row.status,
    rejection_reason: row.rejection_reason,
    created_at: row.created_at,
    decided_at: row.decided_at,
  };
}

export function toAdminDonation(row: DonationRow & PersonNames, unitIds: number[]): AdminDonation {
  return {
    ...toDonation(row),
    donor_id: row.donor_id,
    donor_name: fullNameOf(row),
    donor_username: row.username,
    unit_ids: unitIds,
  };
}

export async function listMyDonations(ctx: AppContext, donorId: number): Promise<Donation[]> {
  const rows = await listDonationsOfDonor(ctx.db, donorId);
  return rows.map(toDonation);
}

/** Manage Donations: every donor's donations, pending first (they wait for a decision), then newest. */
export async function listDonationsPage(ctx: AppContext, query: AdminDonationsQuery): Promise<Paged<AdminDonation>> {
  const { items, total } = await listDonationsForAdmin(ctx.db, {
    status: query.status,
    personId: query.donor_id,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const unitIds = await listUnitIdsOfDonations(
    ctx.db,
    items.map((row) => row.id),
  );
  return {
    items: items.map((row) => toAdminDonation(row, unitIds.get(row.id) ?? [])),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getDonorSummary(
  ctx: AppContext,
  donorId: number,
  today = ctx.clock.today(),
): Promise<DonorSummary> {
  const [counts, eligibleFrom, activities] = await Promise.all([
    countDonationsByStatus(ctx.db, donorId),
    eligibleFromDate(ctx.db, donorId),
    listRecentActivities(ctx.db, donorId, RECENT_ACTIVITY_LIMIT),
  ]);

  let nextEligibleDate: string | null;
  let notEligibleReason: string | null = null;
  if (counts.pending > 0) {
    nextEligibleDate = null;
    notEligibleReason = MESSAGES.pendingDonationExists;
  } else if (eligibleFrom && eligibleFrom > today) {
    nextEligibleDate = eligibleFrom;
    notEligibleReason = MESSAGES.donateAgainFrom(eligibleFrom);
  } else {
    nextEligibleDate = today;
  }

  return {
    made: counts.pending + counts.approved + counts.rejected,
    pending: counts.pending,
    approved: counts.approved,
    rejected: counts.rejected,
    next_eligible_date: nextEligibleDate,
    not_eligible_reason: notEligibleReason,
    activities,
  };
}
