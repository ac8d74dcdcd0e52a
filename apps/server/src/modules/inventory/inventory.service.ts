import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { redCellUnitsOf } from '@bloodbank/shared/components';
import type { BloodUnit, Paged, UnitsQuery } from '@bloodbank/shared/admin';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import type { AppContext } from '../../context';
import type { BloodUnitRow } from '../../db/types';
import { fullNameOf } from '../users/users.service';
import { countStockByGroupAndComponent, findDonorsOfDonations, listUnits } from './inventory.repository';

/**
 * What the inventory screens read. The changes are one file each: issue-units.ts (first-expiring-
 * first), receive-units.ts, discard-units.ts.
 */

/** Expired: still marked available, but past its expiry date; never stock, waiting to be discarded. */
export const isExpiredUnit = (unit: Pick<BloodUnitRow, 'status' | 'expires_on'>, today: string) =>
  unit.status === 'available' && unit.expires_on < today;

export function toBloodUnit(row: BloodUnitRow, today: string): BloodUnit {
  return {
    id: row.id,
    bloodgroup: row.bloodgroup,
    component: row.component,
    parent_unit_id: row.parent_unit_id,
    source: row.source,
    donation_id: row.donation_id,
    collected_on: row.collected_on,
    expires_on: row.expires_on,
    status: row.status,
    hold_reason: row.hold_reason,
    expired: isExpiredUnit(row, today),
    request_id: row.request_id,
    issued_at: row.issued_at,
    discarded_at: row.discarded_at,
    discard_reason: row.discard_reason,
    created_at: row.created_at,
  };
}

export async function listUnitsPage(ctx: AppContext, query: UnitsQuery): Promise<Paged<BloodUnit>> {
  const today = ctx.clock.today();
  const { items, total } = await listUnits(ctx.db, {
    bloodgroup: query.bloodgroup,
    component: query.component,
    filter: query.status,
    unitId: query.unit,
    today,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  // The donors of the page's units, in one query.
  const donors = await findDonorsOfDonations(
    ctx.db,
    items.flatMap((row) => (row.donation_id === null ? [] : [row.donation_id])),
  );
  const donorOf = new Map(
    donors.map((donor) => [donor.donation_id, { id: donor.donor_id, name: fullNameOf(donor), username: donor.username }]),
  );
  return {
    items: items.map((row) => ({
      ...toBloodUnit(row, today),
      donor: row.donation_id === null ? null : (donorOf.get(row.donation_id) ?? null),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Every group, in the order screens list them, with its available units that have not expired
 * today: per component, and `units` = red cells + whole blood (PRODUCT.md 3.3).
 */
export async function getStock(ctx: AppContext): Promise<StockEntry[]> {
  const stock = await countStockByGroupAndComponent(ctx.db, ctx.clock.today());
  return BLOOD_GROUPS.map((bloodgroup) => ({
    bloodgroup,
    units: redCellUnitsOf(stock[bloodgroup]),
    components: stock[bloodgroup],
  }));
}
