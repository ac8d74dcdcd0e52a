import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { COMPONENTS, redCellUnitsOf } from '@bloodbank/shared/components';
import type { AdminDashboard } from '@bloodbank/shared/admin';
import { EXPIRING_SOON_DAYS, WEEKLY_CHART_WEEKS } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import { countInventoryByGroup, countQuarantinedByGroup, listExpiringUnits } from '../inventory/inventory.repository';
import { countActiveUsers } from '../users/users.repository';
import { mondayOf, startOfDayInstant } from './calendar';
import { countCreatedPerPeriod, countPendingDecisions } from './dashboard.repository';

/** The dashboard lists at most this many expiring units; the Manage Blood unit list has them all. */
export const EXPIRING_UNITS_LIMIT = 100;

/**
 * Every number comes from an aggregate query. totalBloodUnits is the sum of every component column
 * of the inventory rows, so the headline card always matches the table. "Expiring soon" = usable and expiring within
 * EXPIRING_SOON_DAYS days from today, today included.
 */
export async function getDashboard(ctx: AppContext): Promise<AdminDashboard> {
  const today = ctx.clock.today();
  const expiringUntil = addDays(today, EXPIRING_SOON_DAYS);
  const firstWeek = addDays(mondayOf(today), -7 * (WEEKLY_CHART_WEEKS - 1));
  const weekStarts = Array.from({ length: WEEKLY_CHART_WEEKS }, (_, index) => addDays(firstWeek, 7 * index));
  const boundaries = [...weekStarts, addDays(firstWeek, 7 * WEEKLY_CHART_WEEKS)].map((date) =>
    startOfDayInstant(date, ctx.config.timezone),
  );

  const [totalDonors, totalPatients, pending, inventoryCounts, quarantined, expiringUnits, donationsPerWeek, requestsPerWeek] =
    await Promise.all([
      countActiveUsers(ctx.db, 'DONOR'),
      countActiveUsers(ctx.db, 'PATIENT'),
      countPendingDecisions(ctx.db, today),
      countInventoryByGroup(ctx.db, today, expiringUntil),
      countQuarantinedByGroup(ctx.db),
      listExpiringUnits(ctx.db, today, expiringUntil, EXPIRING_UNITS_LIMIT),
      countCreatedPerPeriod(ctx.db, 'donations', boundaries),
      countCreatedPerPeriod(ctx.db, 'blood_requests', boundaries),
    ]);

  const threshold = ctx.config.lowStockThreshold;
  const inventory = BLOOD_GROUPS.map((bloodgroup) => {
    const counts = inventoryCounts[bloodgroup];
    const units = redCellUnitsOf(counts.components);
    return {
      bloodgroup,
      units,
      components: counts.components,
      expiring_soon: counts.expiringSoon,
      // Low stock is about red cells, the units most requests need (PRODUCT.md 3.3).
      low: units < threshold,
      critical: units < ctx.config.supplyCriticalUnits,
      expired: counts.expired,
      // Shown beside the stock, never in it (PRODUCT.md 3.3).
      in_testing: quarantined.inTesting[bloodgroup],
      on_hold: quarantined.onHold[bloodgroup],
    };
  });

  return {
    totalDonors,
    totalPatients,
    // Every available unit of every component: the sum of every component column.
    totalBloodUnits: inventory.reduce(
      (sum, row) => sum + COMPONENTS.reduce((groupSum, component) => groupSum + row.components[component], 0),
      0,
    ),
    pendingDonations: pending.donations,
    bookingsDue: pending.bookingsDue,
    awaitingResults: pending.awaitingResults,
    pendingRequests: pending.requests,
    lowStockThreshold: threshold,
    inventory,
    weekly: weekStarts.map((week_start, index) => ({
      week_start,
      donations: donationsPerWeek[index] ?? 0,
      requests: requestsPerWeek[index] ?? 0,
    })),
    expiringUnits,
    shelfLifeDays: ctx.config.shelfLifeDays,
  };
}
