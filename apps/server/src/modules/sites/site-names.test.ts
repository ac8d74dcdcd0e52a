import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_MESSAGES, type Site, type WeeklyHours } from '@bloodbank/shared/sites';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { TestUser } from '../../../test/factories';
import { staffOf } from '../../../test/donation-helpers';

/**
 * One name per site (PRODUCT.md 3.6; site-names.ts): a name another site has, active or not, case
 * and surrounding or repeated spaces aside, is refused on creation and on a rename, with 409 and
 * the message on the name field, as a taken username is (3.1). On the engine the suite runs on.
 */

const HOURS: WeeklyHours = {
  monday: { open: '08:00', close: '16:00' },
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};
const NAME_TAKEN = {
  detail: SITE_MESSAGES.nameTaken,
  code: 'site_name_taken',
  errors: { name: SITE_MESSAGES.nameTaken },
};

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-09T07:00:00Z' });
  admin = await staffOf(t);
});
afterAll(() => t.close());

const create = (name: string, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/sites',
    headers: admin.headers,
    payload: { name, address: '1 Main Street, Pune', hours: HOURS, ...extra },
  });
const edit = (id: number, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `/api/admin/sites/${id}`, headers: admin.headers, payload });
async function created(name: string, extra: object = {}): Promise<Site> {
  const response = await create(name, extra);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Site>();
}
const namesLike = async (pattern: string) =>
  (await t.db.selectFrom('sites').select('name').execute())
    .map((row) => row.name)
    .filter((name) => name.toLowerCase().includes(pattern));

describe('site names (POST and PATCH /api/admin/sites)', () => {
  it('refuses a new site named like another, whatever its case and spaces: 409 on the name field, nothing saved', async () => {
    await created('Kothrud Camp');
    for (const name of ['kothrud camp', '  KOTHRUD   Camp ', 'Kothrud\tcamp']) {
      const again = await create(name);
      expect(again.statusCode, name).toBe(409);
      expect(again.json()).toEqual(NAME_TAKEN);
    }
    expect(await namesLike('kothrud')).toEqual(['Kothrud Camp']);
  });

  it('refuses the name of an inactive site too', async () => {
    await created('Baner Camp', { active: false });
    const again = await create('baner camp');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(NAME_TAKEN);
  });

  it("refuses renaming a site to another site's name; the site keeps its own", async () => {
    await created('Aundh Centre');
    const other = await created('Wakad Centre');
    const renamed = await edit(other.id, { name: ' aundh  CENTRE', address: '2 Station Road' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(NAME_TAKEN);
    const row = await t.db
      .selectFrom('sites')
      .select(['name', 'address'])
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Wakad Centre', address: '1 Main Street, Pune' });
  });

  it('saves a site with its own name, and with its own name in another case', async () => {
    const site = await created('Hadapsar Hall');
    const same = await edit(site.id, { name: 'Hadapsar Hall', address: '9 Canal Road', hours: HOURS });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Hadapsar Hall', address: '9 Canal Road' });
    const recased = await edit(site.id, { name: 'HADAPSAR hall' });
    expect(recased.statusCode, recased.body).toBe(200);
    expect(recased.json()).toMatchObject({ name: 'HADAPSAR hall' });
    // A name no site has is fine too.
    expect((await edit(site.id, { name: 'Hadapsar Community Hall' })).statusCode).toBe(200);
  });

  it('still saves a site that shared its name with another before the rule (no migration renames them)', async () => {
    const first = await created('Old Town Camp');
    const now = new Date().toISOString();
    const legacy = await t.db
      .insertInto('sites')
      .values({
        name: 'old town camp',
        address: 'Somewhere',
        active: 1,
        hours: JSON.stringify(HOURS),
        slot_minutes: 15,
        capacity: 2,
        closed_dates: '[]',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const saved = await edit(legacy.id, { name: 'old town camp', address: 'Elsewhere' });
    expect(saved.statusCode, saved.body).toBe(200);
    // The older one keeps its own name too, respaced; a third site of that name is refused.
    expect((await edit(first.id, { name: 'Old Town  Camp ', capacity: 3 })).statusCode).toBe(200);
    expect((await create('OLD TOWN CAMP')).statusCode).toBe(409);
  });

  it('gives exactly one 201 when the same name is created ten times at once, in different cases', async () => {
    const names = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0 ? 'Twin Camp' : ` twin  CAMP${' '.repeat(index)}`,
    );
    const responses = await Promise.all(names.map((name) => create(name)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      201,
      ...Array<number>(9).fill(409),
    ]);
    expect(await namesLike('twin')).toHaveLength(1);
  });

  it('gives exactly one 200 when two sites are renamed to one name at once', async () => {
    const [a, b] = [await created('North Camp'), await created('South Camp')];
    const responses = await Promise.all([
      edit(a.id, { name: 'Central Camp' }),
      edit(b.id, { name: 'central camp' }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await namesLike('central')).toHaveLength(1);
  });
});
