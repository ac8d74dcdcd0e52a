import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import type { PublicSupply, SupplyLevel } from '@bloodbank/shared/supply';
import type { AppContext } from '../../context';
import { countStockByGroup } from '../inventory/inventory.repository';

export interface SupplyThresholds {
  /** Fewer units than this is critical (SUPPLY_CRITICAL_UNITS). */
  critical: number;
  /** Fewer units than this is low (LOW_STOCK_THRESHOLD, the admin dashboard's flag). */
  low: number;
}

export function supplyLevelOf(units: number, thresholds: SupplyThresholds): SupplyLevel {
  if (units < thresholds.critical) return 'critical';
  if (units < thresholds.low) return 'low';
  return 'good';
}

/**
 * Every group's red-cell supply (red cells plus whole blood, available and not expired today: the
 * `units` of GET /api/stock) as a level. The counts never leave this function (PRODUCT.md 3.8).
 */
export async function getPublicSupply(ctx: AppContext): Promise<PublicSupply> {
  const units = await countStockByGroup(ctx.db, ctx.clock.today(), 'red_cells');
  const thresholds = { critical: ctx.config.supplyCriticalUnits, low: ctx.config.lowStockThreshold };
  return BLOOD_GROUPS.map((bloodgroup) => ({ bloodgroup, level: supplyLevelOf(units[bloodgroup], thresholds) }));
}
