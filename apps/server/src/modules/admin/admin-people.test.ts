import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, TEST_PASSWORD, type TestUser } from '../../../test/factories';
import { auditEntries, insertDonation, insertRequest } from '../../../test/admin-fixtures';

let t: TestApp;
let admin: TestUser;
// Donors: created in this order, so created_at ascends with them.
let asha: TestUser;
let ben: TestUser;
let chitra: TestUser;
let patient: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T12:00:00Z' });
  admin = await createAdmin(t);
  asha = await createDonor(t, { username: 'asha.k', first_name: 'Asha', last_name: 'Kumar', bloodgroup: 'B+', email: 'asha@example.org' });
  ben = await createDonor(t, { username: 'ben_r', first_name: 'Ben', last_name: 'Roy', bloodgroup: 'A-', email: 'ben@mail.test' });
  chitra = await createDonor(t, { username: 'chitra', first_name: 'chitra', last_name: 'Das', bloodgroup: 'O-', email: 'c_das@example.org' });
  patient = await createPatient(t, { username: 'ravi.s', first_name: 'Ravi', last_name: 'Shah', bloodgroup: 'AB+' });
  // created_at decides the default order; the factory stamps real time, so make it explicit.
  for (const [index, user] of [asha, ben, chitra, patient].entries()) {
    await t.db.updateTable('users').set({ created_at: `2026-01-0${index + 1}T00:00:00.000Z` }).where('id', '=', user.id).execute();
  }
  await insertDonation(t, asha.id, { status: 'released' });
  await insertDonation(t, asha.id, { status: 'cancelled' });
  await insertDonation(t, asha.id, { status: 'pending' });
  await insertRequest(t, patient.id);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });
const usernames = (body: { items: { username: string }[] }) => body.items.map((item) => item.username);

describe('GET /api/admin/donors', () => {
  it('lists donors newest first with their details and the donations they gave (not their bookings)', async () => {
    const response = await get('/api/admin/donors');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(usernames(body)).toEqual(['chitra', 'ben_r', 'asha.k']);
    expect(body.items[2]).toEqual({
      id: asha.id,
      username: 'asha.k',
      first_name: 'Asha',
      last_name: 'Kumar',
      email: 'asha@example.org',
      bloodgroup: 'B+',
      address: '12 Test Street',
      mobile: '9876543210',
      is_active: true,
      deactivated_at: null,
      created_at: '2026-01-01T00:00:00.000Z',
      // One released; the cancelled and the pending bookings are no donations.
      donations: 1,
      deferred: null,
    });
    expect(response.body).not.toMatch(/password/);
  });

  it('says which donors are deferred today (the longest deferral, never its reason)', async () => {
    const deferral = (donorId: number, fields: { type: 'temporary' | 'permanent'; until?: string | null; lifted?: boolean }) =>
      t.db
        .insertInto('deferrals')
        .values({
          donor_id: donorId,
          type: fields.type,
          until: fields.until ?? null,
          reason: 'Confidential reason',
          source: 'manual',
          donation_id: null,
          created_by: admin.id,
          created_at: '2026-03-01T00:00:00.000Z',
          ...(fields.lifted ? { lifted_at: '2026-03-02T00:00:00.000Z', lifted_by: admin.id, lift_reason: 'Entered in error' } : {}),
        })
        .execute();
    const [temporary, ended, lifted, permanent] = await Promise.all(Array.from({ length: 4 }, () => createDonor(t)));
    // Two in force: the longer one is said.
    await deferral(temporary!.id, { type: 'temporary', until: '2026-03-20' });
    await deferral(temporary!.id, { type: 'temporary', until: '2026-04-15' });
    // Ended today: the donor may donate today.
    await deferral(ended!.id, { type: 'temporary', until: '2026-03-10' });
    await deferral(lifted!.id, { type: 'permanent', lifted: true });
    await deferral(permanent!.id, { type: 'temporary', until: '2026-05-01' });
    await deferral(permanent!.id, { type: 'permanent' });

    const listed = (await get('/api/admin/donors?pageSize=50')).json<{ items: { id: number; deferred: unknown }[] }>().items;
    const deferredOf = (donor: TestUser) => listed.find((item) => item.id === donor.id)?.deferred;
    expect(deferredOf(temporary!)).toEqual({ type: 'temporary', until: '2026-04-15' });
    expect(deferredOf(ended!)).toBeNull();
    expect(deferredOf(lifted!)).toBeNull();
    expect(deferredOf(permanent!)).toEqual({ type: 'permanent', until: null });
    expect((await get(`/api/admin/donors/${permanent!.id}`)).json()).toMatchObject({ deferred: { type: 'permanent', until: null } });
    expect(JSON.stringify(listed)).not.toContain('Confidential reason');
    await t.db.deleteFrom('deferrals').execute();
    await t.db.deleteFrom('users').where('id', 'in', [temporary!.id, ended!.id, lifted!.id, permanent!.id]).execute();
  });

  it('searches names, full name, username and email, case-insensitively', async () => {
    expect(usernames((await get('/api/admin/donors?search=ASHA')).json())).toEqual(['asha.k']);
    expect(usernames((await get('/api/admin/donors?search=ben%20roy')).json())).toEqual(['ben_r']);
    expect(usernames((await get('/api/admin/donors?search=example.org')).json())).toEqual(['chitra', 'asha.k']);
    expect((await get('/api/admin/donors?search=nobody')).json()).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
  });

  it('finds a mobile number as people write it, a blood group, and a name surname first', async () => {
    for (const typed of ['9876543210', '98765 43210', '98765-43210', '+91 98765 43210', '098765 43210', '543 210']) {
      expect(usernames((await get(`/api/admin/donors?search=${encodeURIComponent(typed)}`)).json()), typed).toContain('asha.k');
    }
    expect(usernames((await get('/api/admin/donors?search=b%2B')).json())).toEqual(['asha.k']);
    expect(usernames((await get('/api/admin/donors?search=O-')).json())).toEqual(['chitra']);
    expect(usernames((await get('/api/admin/donors?search=kumar%20asha')).json())).toEqual(['asha.k']);
  });

  it('finds a name however a keyboard typed its letters, in any case: stored in one Unicode form, searched in the same', async () => {
    const jose = await createDonor(t, { username: 'jose.m', last_name: 'Mendes' });
    const zainab = await createDonor(t, { username: 'zainab.f', last_name: 'Farooqui' });
    // An e and a combining accent; a ज़ typed as one character (U+095B).
    const rename = (donor: TestUser, first_name: string) =>
      t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: donor.headers, payload: { first_name } });
    expect((await rename(jose, 'Jose\u0301')).json().first_name).toBe('Jos\u00e9');
    expect((await rename(zainab, '\u095B\u0948\u0928\u092C')).statusCode).toBe(200);
    for (const typed of ['Jos\u00e9', 'Jose\u0301', 'jos\u00e9 mendes', 'JOS\u00c9', 'JOSE\u0301 MENDES']) {
      expect(usernames((await get(`/api/admin/donors?search=${encodeURIComponent(typed)}`)).json()), typed).toEqual(['jose.m']);
    }
    // The same name from a keyboard that types ज and the nukta sign apart.
    for (const typed of ['\u095B\u0948\u0928\u092C', '\u091C\u093C\u0948\u0928\u092C']) {
      expect(usernames((await get(`/api/admin/donors?search=${encodeURIComponent(typed)}`)).json()), typed).toEqual(['zainab.f']);
    }
    // A capital beyond A to Z in the stored name: SQLite's own lower() leaves É as it is.
    const emile = await createDonor(t, { username: 'emile.d', first_name: '\u00c9mile', last_name: 'Durand' });
    for (const typed of ['\u00e9mile', '\u00c9MILE', 'e\u0301mile durand']) {
      expect(usernames((await get(`/api/admin/donors?search=${encodeURIComponent(typed)}`)).json()), typed).toEqual(['emile.d']);
    }
    await t.db.deleteFrom('audit_log').where('actor_id', 'in', [jose.id, zainab.id]).execute();
    await t.db.deleteFrom('users').where('id', 'in', [jose.id, zainab.id, emile.id]).execute();
  });

  it('lists active or deactivated donors only, with the count of those it lists', async () => {
    const gone = await createDonor(t, { username: 'gone.donor', first_name: 'Gone', last_name: 'Donor' });
    await t.db.updateTable('users').set({ is_active: 0, deactivated_at: '2026-03-01T00:00:00.000Z' }).where('id', '=', gone.id).execute();
    const all = (await get('/api/admin/donors?pageSize=100')).json();
    const active = (await get('/api/admin/donors?pageSize=100&status=active')).json();
    const deactivated = (await get('/api/admin/donors?status=deactivated&search=donor')).json();
    expect(usernames(active)).not.toContain('gone.donor');
    expect(active.total).toBe(all.total - 1);
    expect(usernames(deactivated)).toEqual(['gone.donor']);
    expect(deactivated.total).toBe(1);
    expect((await get('/api/admin/donors?status=asleep')).statusCode).toBe(422);
    await t.db.deleteFrom('users').where('id', '=', gone.id).execute();
  });

  it('treats % and _ in a search literally', async () => {
    expect(usernames((await get('/api/admin/donors?search=_')).json())).toEqual(['chitra', 'ben_r']);
    expect((await get('/api/admin/donors?search=%25')).json().total).toBe(0);
  });

  it('sorts by name, username, blood group or date, either way', async () => {
    expect(usernames((await get('/api/admin/donors?sort=name&order=asc')).json())).toEqual(['asha.k', 'ben_r', 'chitra']);
    expect(usernames((await get('/api/admin/donors?sort=name&order=desc')).json())).toEqual(['chitra', 'ben_r', 'asha.k']);
    expect(usernames((await get('/api/admin/donors?sort=username&order=asc')).json())).toEqual(['asha.k', 'ben_r', 'chitra']);
    expect(usernames((await get('/api/admin/donors?sort=bloodgroup&order=asc')).json())).toEqual(['ben_r', 'asha.k', 'chitra']);
    expect(usernames((await get('/api/admin/donors?sort=created_at&order=asc')).json())).toEqual(['asha.k', 'ben_r', 'chitra']);
  });

  it('pages', async () => {
    const page2 = (await get('/api/admin/donors?sort=username&order=asc&page=2&pageSize=2')).json();
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(usernames(page2)).toEqual(['chitra']);
    expect((await get('/api/admin/donors?pageSize=101')).statusCode).toBe(422);
    expect((await get('/api/admin/donors?page=0')).statusCode).toBe(422);
    expect((await get('/api/admin/donors?sort=password')).statusCode).toBe(422);
  });
});

describe('GET /api/admin/patients', () => {
  it('lists patients with their medical details and request counts', async () => {
    const response = await get('/api/admin/patients');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: patient.id,
          username: 'ravi.s',
          first_name: 'Ravi',
          last_name: 'Shah',
          email: 'ravi.s@example.org',
          bloodgroup: 'AB+',
          address: '12 Test Street',
          mobile: '9876543210',
          is_active: true,
          deactivated_at: null,
          created_at: '2026-01-04T00:00:00.000Z',
          disease: 'Surgery',
          age: 40,
          doctorname: 'Dr. Rao',
          requests: 1,
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    expect((await get('/api/admin/patients?search=shah')).json().total).toBe(1);
    expect((await get('/api/admin/patients?search=asha')).json().total).toBe(0);
  });
});

describe('GET /api/admin/donors/:id and /api/admin/patients/:id', () => {
  it('shows one person, and 404 for an unknown id or a person of the other role', async () => {
    const donor = await get(`/api/admin/donors/${ben.id}`);
    expect(donor.statusCode).toBe(200);
    expect(donor.json()).toMatchObject({ id: ben.id, username: 'ben_r', donations: 0 });
    const patientResponse = await get(`/api/admin/patients/${patient.id}`);
    expect(patientResponse.json()).toMatchObject({ id: patient.id, disease: 'Surgery', age: 40 });

    expect((await get('/api/admin/donors/999999')).json()).toEqual({ detail: 'Donor not found', code: 'not_found' });
    expect((await get(`/api/admin/donors/${patient.id}`)).statusCode).toBe(404);
    expect((await get(`/api/admin/patients/${asha.id}`)).json()).toEqual({ detail: 'Patient not found', code: 'not_found' });
    expect((await get('/api/admin/donors/abc')).statusCode).toBe(422);
  });
});

describe('PATCH /api/admin/donors/:id and /api/admin/patients/:id', () => {
  const patch = (url: string, payload: object) => t.app.inject({ method: 'PATCH', url, headers: admin.headers, payload });

  it("edits a donor's details and records before and after of what changed", async () => {
    const response = await patch(`/api/admin/donors/${ben.id}`, { mobile: '9123456780', address: '  4 Lake Road  ', last_name: 'Roy' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: ben.id, mobile: '9123456780', address: '4 Lake Road', last_name: 'Roy' });
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: ben.headers });
    expect(me.json()).toMatchObject({ mobile: '9123456780', address: '4 Lake Road' });

    const [audit] = await auditEntries(t, 'donor.updated');
    expect(audit).toMatchObject({ actor_id: admin.id, actor: admin.username, entity: 'donor', entity_id: ben.id });
    expect(audit?.detail).toEqual({
      before: { address: '12 Test Street', mobile: '9876543210' },
      after: { address: '4 Lake Road', mobile: '9123456780' },
    });
  });

  it('applies the registration rules to every field sent', async () => {
    const response = await patch(`/api/admin/donors/${ben.id}`, { mobile: '12345', email: 'not-an-email', bloodgroup: 'C+' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      mobile: 'Please enter a valid 10-digit mobile number',
      email: 'Invalid email address',
      bloodgroup: 'Please choose a valid blood group',
    });
    expect((await patch(`/api/admin/donors/${ben.id}`, { first_name: '   ' })).json().errors).toEqual({
      first_name: 'First name is required',
    });
    expect((await patch(`/api/admin/patients/${patient.id}`, { age: 0 })).json().errors).toEqual({ age: 'Age must be greater than 0' });
    expect((await patch(`/api/admin/patients/${patient.id}`, { disease: 'Flu' })).json().errors).toEqual({
      disease: 'Please choose one of the options',
    });
    const empty = await patch(`/api/admin/donors/${ben.id}`, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe('Change at least one field');
    expect((await get(`/api/admin/donors/${ben.id}`)).json().mobile).toBe('9123456780');
  });

  it("edits a patient's medical details", async () => {
    const response = await patch(`/api/admin/patients/${patient.id}`, { age: '57', doctorname: 'Dr. Iyer', disease: 'Cancer' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ age: 57, doctorname: 'Dr. Iyer', disease: 'Cancer', first_name: 'Ravi' });
    const [audit] = await auditEntries(t, 'patient.updated');
    expect(audit?.detail).toEqual({
      before: { disease: 'Surgery', age: 40, doctorname: 'Dr. Rao' },
      after: { disease: 'Cancer', age: 57, doctorname: 'Dr. Iyer' },
    });
  });

  it('writes nothing when nothing changes', async () => {
    const before = (await auditEntries(t, 'donor.updated')).length;
    const response = await patch(`/api/admin/donors/${asha.id}`, { first_name: 'Asha' });
    expect(response.statusCode).toBe(200);
    expect(await auditEntries(t, 'donor.updated')).toHaveLength(before);
  });

  it('answers 404 for an unknown id or a person of the other role', async () => {
    expect((await patch('/api/admin/donors/999999', { first_name: 'X' })).statusCode).toBe(404);
    expect((await patch(`/api/admin/patients/${asha.id}`, { first_name: 'X' })).statusCode).toBe(404);
    expect((await patch(`/api/admin/donors/${admin.id}`, { first_name: 'X' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/admin/donors/:id and /api/admin/patients/:id (deactivate)', () => {
  const signIn = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username, password: TEST_PASSWORD }).toString(),
    });

  it('deactivates a donor: the token stops working at once, sign-in is refused, history stays', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers: asha.headers })).statusCode).toBe(200);
    expect((await signIn('asha.k')).statusCode).toBe(200);

    const response = await t.app.inject({ method: 'DELETE', url: `/api/admin/donors/${asha.id}`, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: asha.id, is_active: false, deactivated_at: '2026-03-10T12:00:00.000Z', donations: 1 });

    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: asha.headers });
    expect(me.statusCode).toBe(401);
    expect(me.json().detail).toBe('Your session has expired or is no longer valid. Please log in again.');
    const login = await signIn('asha.k');
    expect(login.statusCode).toBe(401);
    expect(login.json().detail).toBe('This account has been deactivated. Please contact the blood bank.');

    // History stays: the donations remain and the admin still finds the donor.
    expect(await t.db.selectFrom('donations').select('id').where('donor_id', '=', asha.id).execute()).toHaveLength(3);
    expect((await get('/api/admin/donors?search=asha')).json().items[0]).toMatchObject({ is_active: false });
    expect((await get(`/api/admin/donations?donor_id=${asha.id}`)).json().total).toBe(3);

    // Her booking would have held its place until the no-show run: it is cancelled, by staff, with why.
    const booking = (await get(`/api/admin/donations?donor_id=${asha.id}`)).json().items.find(
      (item: { date: string }) => item.date === '2026-03-12',
    );
    expect(booking).toMatchObject({ status: 'cancelled', outcome_reason: "The donor's account was closed." });
    const [cancelled] = await auditEntries(t, 'donation.cancelled');
    expect(cancelled).toMatchObject({ actor: admin.username, entity_id: booking.id });

    const [audit] = await auditEntries(t, 'donor.deactivated');
    expect(audit).toMatchObject({ actor: admin.username, entity: 'donor', entity_id: asha.id });
    expect(audit?.detail).toEqual({
      before: { is_active: true },
      after: { is_active: false, deactivated_at: '2026-03-10T12:00:00.000Z' },
    });

    // Deactivating again changes nothing and writes nothing.
    const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/donors/${asha.id}`, headers: admin.headers });
    expect(again.statusCode).toBe(200);
    expect(await auditEntries(t, 'donor.deactivated')).toHaveLength(1);
    expect(await auditEntries(t, 'donation.cancelled')).toHaveLength(1);
  });

  it('drops a deactivated donor from the dashboard count', async () => {
    const dashboard = (await get('/api/admin/dashboard')).json();
    expect(dashboard.totalDonors).toBe(2);
  });

  it('deactivates a patient the same way', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: `/api/admin/patients/${patient.id}`, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ is_active: false, requests: 1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/requests/mine', headers: patient.headers })).statusCode).toBe(401);
    expect((await signIn('ravi.s')).statusCode).toBe(401);
    expect(await auditEntries(t, 'patient.deactivated')).toHaveLength(1);
  });

  it('answers 404 for an unknown id or a person of the other role', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/admin/donors/999999', headers: admin.headers })).statusCode).toBe(404);
    const wrongRole = await t.app.inject({ method: 'DELETE', url: `/api/admin/patients/${chitra.id}`, headers: admin.headers });
    expect(wrongRole.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers: chitra.headers })).statusCode).toBe(200);
  });
});
