import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';

/**
 * The public blood supply (PRODUCT.md 3.8): each group's red-cell supply as a word, never a count,
 * so anyone can see where donors are needed without learning what the bank holds.
 */
export const SUPPLY_LEVELS = ['critical', 'low', 'good'] as const;
export type SupplyLevel = (typeof SUPPLY_LEVELS)[number];

export const SUPPLY_LEVEL_LABELS: Record<SupplyLevel, string> = {
  critical: 'Critical',
  low: 'Low',
  good: 'Good',
};

/** Fewer red-cell units than this is critical (the default of SUPPLY_CRITICAL_UNITS). */
export const DEFAULT_SUPPLY_CRITICAL_UNITS = 2;

export const SupplyEntrySchema = z.object({
  bloodgroup: z.enum(BLOOD_GROUPS),
  level: z.enum(SUPPLY_LEVELS),
});
export type SupplyEntry = z.infer<typeof SupplyEntrySchema>;

/** GET /api/public/supply: all eight groups, in the order every screen lists them. */
export const PublicSupplySchema = z.array(SupplyEntrySchema);
export type PublicSupply = z.infer<typeof PublicSupplySchema>;
