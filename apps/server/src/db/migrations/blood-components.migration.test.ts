import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migratedTo } from '../../../test/support/migrated-to';

/**
 * Migration 2026-11-25-0003 on units and requests stored before components existed: units become
 * red cells with their expiry unchanged (they were collected with the 42-day red-cell shelf life),
 * requests ask for red cells, and the stock counters follow the component.
 */

describe('migration 2026-11-25-0003 (blood components)', () => {
  it('makes earlier units red cells with their expiry unchanged, and counts stock per component', async () => {
    const previous = await migratedTo('2026-11-25-0002-donation-lifecycle');
    const db = previous.db;

    const at = '2026-06-01T10:00:00.000Z';
    const unit = (status: string, expires: string) => ({
      bloodgroup: 'A+',
      source: 'manual',
      collected_on: '2026-05-20',
      expires_on: expires,
      status,
      created_at: at,
    });
    await db.insertInto('blood_units').values([unit('available', '2026-07-01'), unit('available', '2026-07-01'), unit('discarded', '2026-07-01')]).execute();
    const patient = await db
      .insertInto('users')
      .values({ username: 'p', username_key: 'p', password_hash: 'x', role: 'PATIENT', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('blood_requests')
      .values({ patient_id: patient.id, bloodgroup: 'A+', units: 1, required_date: '2026-06-02', doctorname: 'd', hospital_address: 'h', reason: 'r', created_at: at })
      .execute();

    await previous.migrateToLatest();

    const units = await db.selectFrom('blood_units').select(['component', 'expires_on', 'parent_unit_id']).execute();
    expect(units).toEqual(Array(3).fill({ component: 'red_cells', expires_on: '2026-07-01', parent_unit_id: null }));
    expect(await db.selectFrom('blood_requests').select('component').execute()).toEqual([{ component: 'red_cells' }]);
    const stock = () => db.selectFrom('blood_stock').select(['component', 'expires_on', 'units']).orderBy('component').execute();
    expect((await stock()).map((row: { units: unknown }) => ({ ...row, units: Number(row.units) }))).toEqual([
      { component: 'red_cells', expires_on: '2026-07-01', units: 2 },
    ]);

    // The triggers follow inserts of any component, and a change of component.
    await db.insertInto('blood_units').values({ ...unit('available', '2027-06-01'), component: 'plasma' }).execute();
    await sql`update blood_units set component = 'whole_blood' where id = (select min(id) from blood_units)`.execute(db);
    expect((await stock()).map((row: { component: string; units: unknown }) => [row.component, Number(row.units)])).toEqual([
      ['plasma', 1],
      ['red_cells', 1],
      ['whole_blood', 1],
    ]);
    await expect(db.insertInto('blood_units').values({ ...unit('available', '2027-06-01'), component: 'serum' }).execute()).rejects.toThrow();
  });
});
