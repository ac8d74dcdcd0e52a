import type { AdminDonation, AdminDonationsQuery, Paged } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { MESSAGES, RECENT_ACTIVITY_LIMIT } from '@bloodbank/shared/constants';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import type { Screening, TestResultsRecord } from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import { listRecentActivities } from '../activity/activity.repository';
import { deferralInForce } from '../deferrals/deferrals.service';
import { listUnitIdsOfDonations } from '../inventory/inventory.repository';
import { fullNameOf, type PersonNames } from '../users/users.service';
import {
  countDonationsByStatus,
  findLatestDonationOfDonor,
  listDonationsForAdmin,
  listDonationsOfDonor,
  listLifecycleRecords,
  type DonationWithSite,
  type LifecycleRecords,
} from './donations.repository';
import { slotEnd } from '../sites/opening-hours';
import { eligibleFromDate } from './eligibility';

/**
 * What the donation screens read: the donor's list and dashboard, the admin's Manage Donations
 * list. The changes are one file each: book-, cancel-, collect-, reject-donation.ts and
 * record-test-results.ts.
 */

/** The donor's view: a rejection's reason is theirs to see; screening and test findings are not. */
export function toDonation(row: DonationWithSite): Donation {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    unit: row.units,
    date: row.donation_date,
    disease: row.disease,
    lastDonation: row.last_donation,
    // A reactive test is confidential: its donor reads "needs follow-up", not "discarded".
    status: row.status === 'discarded' ? 'follow_up' : row.status,
    rejection_reason: row.status === 'rejected' ? row.rejection_reason : null,
    created_at: row.created_at,
    decided_at: row.decided_at,
    collected_on: row.collected_on,
    appointment:
      row.site_id !== null && row.slot !== null
        ? {
            site_id: row.site_id,
            site_name: row.site_name ?? '',
            address: row.site_address ?? '',
            time: row.slot,
            ends: slotEnd(row.slot, row.site_slot_minutes ?? 0),
          }
        : null,
  };
}

type ScreeningRow = LifecycleRecords['screenings'][number];
type ResultsRow = LifecycleRecords['results'][number];

const toScreening = (row: ScreeningRow): Screening => ({
  haemoglobin_g_dl: Number(row.haemoglobin_g_dl),
  weight_kg: Number(row.weight_kg),
  bp_systolic: row.bp_systolic,
  bp_diastolic: row.bp_diastolic,
  pulse: row.pulse,
  passed: row.passed === 1,
  recorded_by: row.recorded_by_username,
  recorded_at: row.recorded_at,
});

const toTestResults = (row: ResultsRow): TestResultsRecord => ({
  hiv: row.hiv,
  hbv: row.hbv,
  hcv: row.hcv,
  syphilis: row.syphilis,
  bloodgroup: row.bloodgroup,
  recorded_by: row.recorded_by_username,
  recorded_at: row.recorded_at,
});

/** The admin's view, with the confidential records when they were read. */
export function toAdminDonation(
  row: DonationWithSite & PersonNames & { donor_bloodgroup: BloodGroup | null },
  unitIds: number[],
  records: { screening?: ScreeningRow | undefined; results?: ResultsRow | undefined } | undefined,
): AdminDonation {
  return {
    ...toDonation(row),
    status: row.status,
    rejection_reason: row.rejection_reason,
    donor_id: row.donor_id,
    donor_name: fullNameOf(row),
    donor_username: row.username,
    donor_bloodgroup: row.donor_bloodgroup,
    unit_ids: unitIds,
    screening: records?.screening ? toScreening(records.screening) : null,
    test_results: records?.results ? toTestResults(records.results) : null,
    outcome_reason: row.outcome_reason,
  };
}

export async function listMyDonations(ctx: AppContext, donorId: number): Promise<Donation[]> {
  const rows = await listDonationsOfDonor(ctx.db, donorId);
  return rows.map(toDonation);
}

/** Manage Donations: bookings first (earliest date first), then those awaiting results, then the rest. */
export async function listDonationsPage(ctx: AppContext, query: AdminDonationsQuery): Promise<Paged<AdminDonation>> {
  const { items, total } = await listDonationsForAdmin(ctx.db, {
    status: query.status,
    dueBy: query.due === true ? ctx.clock.today() : undefined,
    bookedAfter: query.due === false ? ctx.clock.today() : undefined,
    personId: query.donor_id,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const ids = items.map((row) => row.id);
  const [unitIds, records] = await Promise.all([listUnitIdsOfDonations(ctx.db, ids), listLifecycleRecords(ctx.db, ids)]);
  const screenings = new Map(records.screenings.map((row) => [row.donation_id, row]));
  const results = new Map(records.results.map((row) => [row.donation_id, row]));
  return {
    items: items.map((row) =>
      toAdminDonation(row, unitIds.get(row.id) ?? [], { screening: screenings.get(row.id), results: results.get(row.id) }),
    ),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The donor dashboard (PRODUCT.md 3.2, 3.7): the counters, where the latest booking stands, the
 * deferral in force (never its reason) and the next day the donor may give blood.
 */
export async function getDonorSummary(
  ctx: AppContext,
  donorId: number,
  today = ctx.clock.today(),
): Promise<DonorSummary> {
  const [counts, intervalFrom, deferral, latest, activities] = await Promise.all([
    countDonationsByStatus(ctx.db, donorId),
    eligibleFromDate(ctx.db, donorId, ctx.config.donationIntervalDays),
    deferralInForce(ctx.db, donorId, today),
    findLatestDonationOfDonor(ctx.db, donorId),
    listRecentActivities(ctx.db, donorId, RECENT_ACTIVITY_LIMIT),
  ]);

  let nextEligibleDate: string | null = today;
  let notEligibleReason: string | null = null;
  if (counts.pending > 0) {
    nextEligibleDate = null;
    notEligibleReason = MESSAGES.pendingDonationExists;
  } else if (deferral && deferral.until === null) {
    nextEligibleDate = null;
    notEligibleReason = MESSAGES.deferredPermanently;
  } else {
    // The later of the interval date and the deferral's end.
    const deferredUntil = deferral?.until ?? null;
    if (intervalFrom && intervalFrom > today && (!deferredUntil || intervalFrom >= deferredUntil)) {
      nextEligibleDate = intervalFrom;
      notEligibleReason = MESSAGES.donateAgainFrom(intervalFrom);
    } else if (deferredUntil) {
      nextEligibleDate = deferredUntil;
      notEligibleReason = MESSAGES.deferredUntil(deferredUntil);
    }
  }

  const gaveBlood = counts.collected + counts.released + counts.discarded;
  return {
    // Every booking but a cancelled one (PRODUCT.md 3.2): a missed appointment was still made.
    made: counts.pending + gaveBlood + counts.rejected + counts.deferred + counts.no_show,
    pending: counts.pending,
    approved: gaveBlood,
    rejected: counts.rejected + counts.deferred,
    next_eligible_date: nextEligibleDate,
    not_eligible_reason: notEligibleReason,
    deferred: deferral,
    latest_donation: latest ? toDonation(latest) : null,
    activities,
  };
}
