import { describe, expect, it } from 'vitest';
import { SITE_MESSAGES } from '@bloodbank/shared/sites';
import { onTwoInstances, type SecondInstance } from './support/second-instance';
import type { TestUser } from './factories';
import { testDatabaseUrl, type TestApp } from './test-app';

/**
 * Two staff creating one site name at once on two instances (PRODUCT.md 3.6; site-names.ts): each
 * instance's check reads the names in its own transaction, so without a lock both could find the
 * name free and both insert. The test makes that order happen every time: a connection of its own
 * holds a SHARE lock on `sites` (reads go on, inserts wait) while both creates run, and lets go once
 * one of them waits to insert. PostgreSQL only: SQLite's writes take turns.
 */
const MONDAYS = {
  monday: { open: '08:00', close: '16:00' },
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

describe.skipIf(!testDatabaseUrl)('one site name created on two instances at once (PostgreSQL)', () => {
  let t: TestApp;
  let second: SecondInstance;
  let admin: TestUser;
  onTwoInstances('2026-03-09T07:00:00Z', (world) => ({ t, second, admin } = world));

  it('gives one 201 and one 409, never two sites of one name', async () => {
    const { holder, other, untilWaiting } = second;
    const create = (app: typeof other, name: string) =>
      app.inject({
        method: 'POST',
        url: '/api/admin/sites',
        headers: admin.headers,
        payload: { name, address: '5 Hill Road', hours: MONDAYS },
      });

    await holder.query('begin');
    await holder.query('lock table sites in share mode');
    const first = create(t.app, 'Kothrud Camp');
    // The first create has checked the names and waits to insert.
    await untilWaiting(1, 'insert into "sites"');
    const secondCreate = create(other, '  kothrud camp');
    // Give the second create every chance to check the names meanwhile (without the lock it did,
    // found the name free, and inserted once the table was let go).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.query('commit');

    const statuses = (await Promise.all([first, secondCreate])).map((response) => response.statusCode);
    expect(statuses).toEqual([201, 409]);
    const refused = await secondCreate;
    expect(refused.json()).toMatchObject({
      detail: SITE_MESSAGES.nameTaken,
      errors: { name: SITE_MESSAGES.nameTaken },
    });
    const names = await t.db.selectFrom('sites').select('name').execute();
    expect(names.map((row) => row.name)).toEqual(['Kothrud Camp']);
  }, 30_000);
});
