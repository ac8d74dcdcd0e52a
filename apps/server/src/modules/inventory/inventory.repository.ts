import { BLOOD_GROUPS, type BloodGroup } from '@bloodbank/shared/blood-groups';
import type { DatabaseOrTransaction } from '../../db/database';

/**
 * Stock of a group = its units that are available and not expired today (PRODUCT.md 3.3).
 * A unit expiring today is still usable today.
 */
export async function countStockByGroup(db: DatabaseOrTransaction, today: string): Promise<Record<BloodGroup, number>> {
  const rows = await db
    .selectFrom('blood_units')
    .select(['bloodgroup', (eb) => eb.fn.countAll<number>().as('units')])
    .where('status', '=', 'available')
    .where('expires_on', '>=', today)
    .groupBy('bloodgroup')
    .execute();
  const stock = Object.fromEntries(BLOOD_GROUPS.map((group) => [group, 0])) as Record<BloodGroup, number>;
  for (const row of rows) stock[row.bloodgroup] = Number(row.units);
  return stock;
}

export async function countStockTotal(db: DatabaseOrTransaction, today: string): Promise<number> {
  const row = await db
    .selectFrom('blood_units')
    .select((eb) => eb.fn.countAll<number>().as('units'))
    .where('status', '=', 'available')
    .where('expires_on', '>=', today)
    .executeTakeFirstOrThrow();
  return Number(row.units);
}
