import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import type { Database } from '../../src/db/database';

/**
 * The inventory's invariants, read straight from the database. Returns what is wrong (empty when
 * all hold), so a failing test shows every broken rule at once.
 * - a unit is issued exactly when it names a request, and only to an approved request
 * - every approved request holds exactly its number of units, all of the group it was issued from
 * - every donation that gave blood (collected, released, discarded) put exactly its units into
 *   inventory; other donations none
 * - no unit of a donation without negative test results is available or issued (stock never holds
 *   a quarantined, held or untested unit)
 * - at most one pending donation per donor
 * - the stock the API reports is the count of available units not expired today
 */
export async function findInvariantViolations(
  db: Database,
  today: string,
  stockFromApi?: StockEntry[],
): Promise<string[]> {
  const problems: string[] = [];
  const [units, requests, donations] = await Promise.all([
    db
      .selectFrom('blood_units')
      .select(['id', 'bloodgroup', 'status', 'request_id', 'donation_id', 'expires_on'])
      .execute(),
    db
      .selectFrom('blood_requests')
      .select(['id', 'status', 'units', 'bloodgroup', 'issued_bloodgroup'])
      .execute(),
    db.selectFrom('donations').select(['id', 'donor_id', 'status', 'units']).execute(),
  ]);
  const requestsById = new Map(requests.map((request) => [request.id, request]));

  const unitsByRequest = new Map<number, typeof units>();
  const unitsByDonation = new Map<number, number>();
  for (const unit of units) {
    if ((unit.status === 'issued') !== (unit.request_id !== null)) {
      problems.push(`unit ${unit.id} is ${unit.status} with request ${String(unit.request_id)}`);
    }
    if (unit.request_id !== null) {
      const list = unitsByRequest.get(unit.request_id) ?? [];
      list.push(unit);
      unitsByRequest.set(unit.request_id, list);
    }
    if (unit.donation_id !== null)
      unitsByDonation.set(unit.donation_id, (unitsByDonation.get(unit.donation_id) ?? 0) + 1);
  }

  for (const [requestId, issued] of unitsByRequest) {
    const request = requestsById.get(requestId);
    if (!request || request.status !== 'approved') {
      problems.push(
        `request ${requestId} (${request?.status ?? 'missing'}) holds units ${issued.map((u) => u.id).join(',')}`,
      );
    }
  }
  for (const request of requests.filter((r) => r.status === 'approved')) {
    const issued = unitsByRequest.get(request.id) ?? [];
    if (issued.length !== request.units) {
      problems.push(`approved request ${request.id} wants ${request.units} units and holds ${issued.length}`);
    }
    const group = request.issued_bloodgroup ?? request.bloodgroup;
    const wrongGroup = issued.filter((unit) => unit.bloodgroup !== group);
    if (wrongGroup.length > 0) problems.push(`request ${request.id} (${group}) holds units of other groups`);
  }

  const donationStatus = new Map(donations.map((donation) => [donation.id, donation.status]));
  for (const unit of units) {
    if (unit.donation_id === null || !['available', 'issued'].includes(unit.status)) continue;
    const status = donationStatus.get(unit.donation_id);
    if (status !== 'released') problems.push(`unit ${unit.id} is ${unit.status} while its donation is ${String(status)}`);
  }

  const pendingByDonor = new Map<number, number>();
  for (const donation of donations) {
    const inInventory = unitsByDonation.get(donation.id) ?? 0;
    // A donation that gave blood holds one unit per donated unit (PRODUCT.md 3.2); no other does.
    const expected = ['collected', 'released', 'discarded'].includes(donation.status) ? donation.units : 0;
    if (inInventory !== expected) {
      problems.push(
        `${donation.status} donation ${donation.id} of ${donation.units} units put ${inInventory} into inventory`,
      );
    }
    if (donation.status === 'pending')
      pendingByDonor.set(donation.donor_id, (pendingByDonor.get(donation.donor_id) ?? 0) + 1);
  }
  for (const [donorId, pending] of pendingByDonor) {
    if (pending > 1) problems.push(`donor ${donorId} has ${pending} pending donations`);
  }

  if (stockFromApi) {
    for (const group of BLOOD_GROUPS) {
      const counted = units.filter(
        (u) => u.bloodgroup === group && u.status === 'available' && u.expires_on >= today,
      ).length;
      const reported = stockFromApi.find((entry) => entry.bloodgroup === group)?.units;
      if (reported !== counted)
        problems.push(`stock of ${group}: the API says ${String(reported)}, the units say ${counted}`);
    }
  }
  return problems;
}
