import { CAN_RECEIVE_FROM, type BloodGroup } from '@bloodbank/shared/blood-groups';
import type {
  AdminDonation,
  AdminDonationsQuery,
  AdminRequest,
  AdminRequestsQuery,
  Paged,
} from '@bloodbank/shared/admin';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { AppContext } from '../../context';
import type { BloodRequestRow, DonationRow } from '../../db/types';
import { conflict, invalidFields, notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordActivity } from '../activity/activity.repository';
import { recordAudit } from '../audit/audit.repository';
import { formatFeedDate, recordDonationApproved, recordDonationRejected } from '../donations/donation-activity';
import { toDonation } from '../donations/donations.service';
import { recomputeGameState } from '../game/recompute-game-state';
import {
  countStockByGroup,
  insertUnits,
  listDonationsIssuedToRequest,
  listUnitIdsOfDonations,
} from '../inventory/inventory.repository';
import { issueUnitsFefo } from '../inventory/issue-units';
import { expiryDateOf } from '../inventory/receive-units';
import { recordRequestActivity } from '../requests/request-activity';
import { listIssuedUnitIds } from '../requests/requests.repository';
import { toBloodRequest } from '../requests/requests.service';
import {
  decidePendingDonation,
  decidePendingRequest,
  findDonationForAdmin,
  findRequestForAdmin,
  listDonationsForAdmin,
  listRequestsForAdmin,
} from './decisions.repository';

export const DECISION_MESSAGES = {
  donationNotFound: 'Donation not found',
  requestNotFound: 'Request not found',
  donationDecided: 'This donation has already been decided.',
  /** Blood that has not been given yet cannot be stock (PRODUCT.md 3.2). */
  donationNotYetDue: (date: string) => `This donation is booked for ${date} and can be collected from that day.`,
  requestDecided: 'This request has already been decided.',
  requestCancelled: 'This request was cancelled by the patient.',
  incompatibleGroup: (given: BloodGroup, needed: BloodGroup) =>
    `${given} blood cannot be given to a patient who needs ${needed}.`,
  /** The blood journey entry in the donor's feed (PRODUCT.md 3.3). */
  donationIssued: (donationDate: string, hospital: string) =>
    `Your donation of ${formatFeedDate(donationDate)} was issued to a patient at ${hospital}`,
} as const;

export const DONATION_ISSUED_ACTIVITY_KIND = 'donation_issued';

interface PersonNames {
  username: string;
  first_name: string | null;
  last_name: string | null;
}

export const fullNameOf = (person: PersonNames) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ').trim() || person.username;

export function toAdminDonation(row: DonationRow & PersonNames, unitIds: number[]): AdminDonation {
  return {
    ...toDonation(row),
    donor_id: row.donor_id,
    donor_name: fullNameOf(row),
    donor_username: row.username,
    unit_ids: unitIds,
  };
}

export function toAdminRequest(row: BloodRequestRow & PersonNames, issuedUnitIds: number[]): AdminRequest {
  return {
    ...toBloodRequest(row, issuedUnitIds),
    patient_id: row.patient_id,
    patient_name: fullNameOf(row),
    patient_username: row.username,
  };
}

const reasonOf = (reason: string | undefined) => reason?.trim() || null;

// ---------------------------------------------------------------- lists

export async function listDonations(ctx: AppContext, query: AdminDonationsQuery): Promise<Paged<AdminDonation>> {
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

export async function listRequests(ctx: AppContext, query: AdminRequestsQuery): Promise<Paged<AdminRequest>> {
  const { items, total } = await listRequestsForAdmin(ctx.db, {
    status: query.status,
    personId: query.patient_id,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const unitIds = await listIssuedUnitIds(
    ctx.db,
    items.map((row) => row.id),
  );
  return {
    items: items.map((row) => toAdminRequest(row, unitIds.get(row.id) ?? [])),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

// ---------------------------------------------------------------- donations

async function pendingDonation(ctx: AppContext, donationId: number) {
  const donation = await findDonationForAdmin(ctx.db, donationId);
  if (!donation) throw notFound(DECISION_MESSAGES.donationNotFound);
  if (donation.status !== 'pending') throw conflict(DECISION_MESSAGES.donationDecided, 'already_decided');
  return donation;
}

/**
 * The donation's units enter inventory, one row per bag, collected on the donation date. The
 * conditional update decides races: a second approval (or a rejection) finds it no longer pending.
 */
export async function approveDonation(ctx: AppContext, admin: Principal, donationId: number): Promise<AdminDonation> {
  const donation = await pendingDonation(ctx, donationId);
  if (donation.donation_date > ctx.clock.today()) {
    throw conflict(DECISION_MESSAGES.donationNotYetDue(donation.donation_date), 'not_yet_due');
  }
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingDonation(trx, donationId, 'approved', {
      decidedBy: admin.id,
      at,
      rejectionReason: null,
    });
    if (!decided) throw conflict(DECISION_MESSAGES.donationDecided, 'already_decided');
    const units = await insertUnits(trx, {
      bloodgroup: decided.bloodgroup,
      source: 'donation',
      donationId: decided.id,
      collectedOn: decided.donation_date,
      expiresOn: expiryDateOf(decided.donation_date, ctx.config.unitShelfLifeDays),
      count: decided.units,
      at,
    });
    const unitIds = units.map((unit) => unit.id);
    await recordDonationApproved(trx, decided.donor_id, { date: decided.donation_date, units: decided.units }, at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.approved',
      entity: 'donation',
      entityId: decided.id,
      before: { status: donation.status },
      after: { status: decided.status, unit_ids: unitIds, expires_on: units[0]?.expires_on ?? null },
      at,
    });
    return toAdminDonation({ ...donation, ...decided }, unitIds);
  });
}

/** Nothing enters inventory; the donor's game reward for it is reversed (PRODUCT.md 3.4). */
export async function rejectDonation(
  ctx: AppContext,
  admin: Principal,
  donationId: number,
  input: { reason?: string | undefined },
): Promise<AdminDonation> {
  const donation = await pendingDonation(ctx, donationId);
  const reason = reasonOf(input.reason);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingDonation(trx, donationId, 'rejected', {
      decidedBy: admin.id,
      at,
      rejectionReason: reason,
    });
    if (!decided) throw conflict(DECISION_MESSAGES.donationDecided, 'already_decided');
    await recordDonationRejected(trx, decided.donor_id, { date: decided.donation_date, units: decided.units }, reason, at);
    const game = await recomputeGameState(trx, decided.donor_id, at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.rejected',
      entity: 'donation',
      entityId: decided.id,
      before: { status: donation.status },
      after: {
        status: decided.status,
        reason,
        ...(game.profile ? { game: { points: game.profile.points, level: game.profile.level } } : {}),
        ...(game.withdrawn.length ? { achievements_withdrawn: game.withdrawn.map((achievement) => achievement.name) } : {}),
      },
      at,
    });
    return toAdminDonation({ ...donation, ...decided }, []);
  });
}

// ---------------------------------------------------------------- requests

async function pendingRequest(ctx: AppContext, requestId: number) {
  const request = await findRequestForAdmin(ctx.db, requestId);
  if (!request) throw notFound(DECISION_MESSAGES.requestNotFound);
  if (request.status === 'cancelled') throw conflict(DECISION_MESSAGES.requestCancelled, 'already_decided');
  if (request.status !== 'pending') throw conflict(DECISION_MESSAGES.requestDecided, 'already_decided');
  return request;
}

/** Thrown inside the approval transaction to roll it back; answered with the 409 once it is over. */
class NotEnoughStock extends Error {}

/**
 * Issues the request's units first-expiring-first from its own group, or from `bloodgroup` when the
 * admin picks a compatible one. One transaction: the request leaves "pending" and exactly
 * `units` units become issued to it, or nothing changes at all.
 */
export async function approveRequest(
  ctx: AppContext,
  admin: Principal,
  requestId: number,
  input: { bloodgroup?: BloodGroup | undefined },
): Promise<AdminRequest> {
  const request = await pendingRequest(ctx, requestId);
  const issueFrom = input.bloodgroup ?? request.bloodgroup;
  if (!CAN_RECEIVE_FROM[request.bloodgroup].includes(issueFrom)) {
    throw invalidFields({ bloodgroup: DECISION_MESSAGES.incompatibleGroup(issueFrom, request.bloodgroup) });
  }
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();

  try {
    return await ctx.writes.run(async (trx) => {
      // First, so that on PostgreSQL a second approval of this request waits here and then loses.
      const decided = await decidePendingRequest(trx, requestId, 'approved', {
        decidedBy: admin.id,
        at,
        rejectionReason: null,
        issuedBloodgroup: issueFrom,
      });
      if (!decided) throw conflict(DECISION_MESSAGES.requestDecided, 'already_decided');

      const unitIds = await issueUnitsFefo(trx, ctx.engine, {
        bloodgroup: issueFrom,
        count: decided.units,
        requestId,
        today,
        at,
      });
      if (!unitIds) throw new NotEnoughStock();

      await recordRequestActivity(trx, decided, { type: 'approved', issuedBloodgroup: issueFrom }, at);
      // The blood journey: every donor whose bag went to this patient hears where it went.
      for (const donation of await listDonationsIssuedToRequest(trx, requestId)) {
        await recordActivity(trx, {
          userId: donation.donor_id,
          kind: DONATION_ISSUED_ACTIVITY_KIND,
          message: DECISION_MESSAGES.donationIssued(donation.donation_date, decided.hospital_address),
          at,
        });
      }
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: 'request.approved',
        entity: 'request',
        entityId: requestId,
        before: { status: request.status },
        after: { status: decided.status, issued_bloodgroup: issueFrom, unit_ids: unitIds },
        at,
      });
      return toAdminRequest({ ...request, ...decided }, unitIds);
    });
  } catch (error) {
    if (!(error instanceof NotEnoughStock)) throw error;
    throw await insufficientStock(ctx, request.bloodgroup, issueFrom, request.units, today);
  }
}

/**
 * The 409 of PRODUCT.md 3.3: how many units the tried group has, and the other groups the patient
 * may receive from that can cover the WHOLE request on their own (the admin approves from one
 * group, so a group with fewer units would only lead to another refusal).
 */
async function insufficientStock(
  ctx: AppContext,
  needed: BloodGroup,
  tried: BloodGroup,
  units: number,
  today: string,
) {
  const stock = await countStockByGroup(ctx.db, today);
  const available = stock[tried];
  const compatible = CAN_RECEIVE_FROM[needed]
    .filter((group) => group !== tried && stock[group] >= units)
    .map((bloodgroup) => ({ bloodgroup, units: stock[bloodgroup] }));
  return conflict(MESSAGES.notEnoughStock(available), 'insufficient_stock', { available, compatible });
}

export async function rejectRequest(
  ctx: AppContext,
  admin: Principal,
  requestId: number,
  input: { reason?: string | undefined },
): Promise<AdminRequest> {
  const request = await pendingRequest(ctx, requestId);
  const reason = reasonOf(input.reason);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const decided = await decidePendingRequest(trx, requestId, 'rejected', {
      decidedBy: admin.id,
      at,
      rejectionReason: reason,
      issuedBloodgroup: null,
    });
    if (!decided) throw conflict(DECISION_MESSAGES.requestDecided, 'already_decided');
    await recordRequestActivity(trx, decided, { type: 'rejected', reason }, at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'request.rejected',
      entity: 'request',
      entityId: requestId,
      before: { status: request.status },
      after: { status: decided.status, reason },
      at,
    });
    return toAdminRequest({ ...request, ...decided }, []);
  });
}
