import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, type TestUser } from '../../../test/factories';
import { insertDonation, insertRequest, insertUnits } from '../../../test/admin-fixtures';
import { PASSING_SCREENING } from '../../../test/donation-helpers';
import { csvCell, toCsv } from './csv';
import { recordAudit } from '../audit/audit.repository';
import { EXPORT_CHUNK_ROWS } from './export.service';

const NOW = '2026-03-10T12:00:00.000Z';
/** Instants in a file are the bank's wall-clock time with its offset (UTC here, the default zone). */
const NOW_IN_CSV = '2026-03-10T12:00:00+00:00';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  admin = await createAdmin(t, { username: 'head.admin' });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });

/**
 * Splits CSV text into rows of cells (enough of RFC 4180 for these files: quoted cells, doubled
 * quotes, CRLF), after the byte order mark every export starts with, as a spreadsheet reads it.
 */
function parseCsv(file: string): string[][] {
  expect(file.startsWith('\uFEFF')).toBe(true);
  const text = file.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  return rows;
}

describe('csv cells', () => {
  it('escapes cells that a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('quotes commas, quotes, line breaks and edge spaces; writes numbers and empty values plainly', () => {
    expect(csvCell('Pune, India')).toBe('"Pune, India"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, 'x'],
          [null, 'y,z'],
        ],
      ),
    ).toBe('a,b\r\n1,x\r\n,"y,z"\r\n');
  });
});

describe('GET /api/admin/export/*.csv', () => {
  it('downloads donations as a formula-safe CSV attachment', async () => {
    const donor = await createDonor(t, { first_name: '=cmd|calc', last_name: 'Kumar, Jr.' });
    const donation = await insertDonation(t, donor.id, {
      units: 2,
      date: '2026-03-12',
      disease: 'High Blood Pressure',
      created_at: NOW,
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/donations/${donation.id}/reject`,
      headers: admin.headers,
      payload: { reason: '@risk "high"' },
    });

    const response = await get('/api/admin/export/donations.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    // UTF-8's byte order mark, so Excel reads the names as UTF-8, not in the Windows code page.
    expect([...response.rawPayload.subarray(0, 5)]).toEqual([0xef, 0xbb, 0xbf, 0x69, 0x64]);
    expect(response.headers['content-disposition']).toBe('attachment; filename="donations-2026-03-10.csv"');
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual([
      'id',
      'donor_id',
      'donor_username',
      'donor_name',
      'bloodgroup',
      'units',
      'donation_date',
      'health_condition',
      'last_donation',
      'status',
      'rejection_reason',
      'decided_at',
      'collected_on',
      'created_at',
      'outcome_reason',
    ]);
    expect(rows[1]).toEqual([
      String(donation.id),
      String(donor.id),
      donor.username,
      "'=cmd|calc Kumar, Jr.",
      'O+',
      '2',
      '2026-03-12',
      'High Blood Pressure',
      '',
      'rejected',
      `'@risk "high"`,
      NOW_IN_CSV,
      '',
      NOW_IN_CSV,
      '',
    ]);
    expect(rows).toHaveLength(2);

    // A screening that deferred the donation: the failed measurements, as Manage Donations shows them.
    const screened = await insertDonation(t, donor.id, {
      units: 1,
      date: '2026-03-10',
      disease: 'None',
      created_at: NOW,
    });
    const deferred = await t.app.inject({
      method: 'POST',
      url: `/api/admin/donations/${screened.id}/collect`,
      headers: admin.headers,
      payload: { ...PASSING_SCREENING, haemoglobin_g_dl: 11.8 },
    });
    expect(deferred.json().status).toBe('deferred');
    const again = parseCsv((await get('/api/admin/export/donations.csv')).body);
    expect(again[2]![9]).toBe('deferred');
    expect(again[2]![14]).toBe('Haemoglobin 11.8 g/dL is below 12.5 g/dL.');
  });

  it("writes instants in the bank's time zone: a booking made just after midnight in Kolkata is on that day", async () => {
    const kolkata = await createTestApp({ now: '2026-12-08T06:00:00.000Z', env: { TIMEZONE: 'Asia/Kolkata' } });
    try {
      const staff = await createAdmin(kolkata);
      const donor = await createDonor(kolkata);
      // 00:06:40 on 8 December in Kolkata.
      await insertDonation(kolkata, donor.id, { units: 1, date: '2026-12-10', disease: 'None', created_at: '2026-12-07T18:36:40.000Z' });
      const response = await kolkata.app.inject({ method: 'GET', url: '/api/admin/export/donations.csv', headers: staff.headers });
      const [header, row] = parseCsv(response.body);
      expect(row![header!.indexOf('created_at')]).toBe('2026-12-08T00:06:40+05:30');
      expect(response.headers['content-disposition']).toBe('attachment; filename="donations-2026-12-08.csv"');
    } finally {
      await kolkata.close();
    }
  });

  it('streams a file longer than one chunk: every row once, in order, with other requests served between chunks', async () => {
    // The statements as the database runs them, in order.
    const statements: string[] = [];
    const logged = await createTestApp({ now: NOW, queryLog: (query) => statements.push(query) });
    try {
      const staff = await createAdmin(logged);
      const count = EXPORT_CHUNK_ROWS * 2 + 500;
      await insertUnits(logged, { bloodgroup: 'A+', count, expires_on: '2026-05-01' });
      statements.length = 0;
      const ask = (url: string) => logged.app.inject({ method: 'GET', url, headers: staff.headers });
      const [response] = await Promise.all([ask('/api/admin/export/units.csv'), ask('/api/admin/audit')]);

      const reads = statements.flatMap((query, index) => (/from "blood_units"/.test(query) ? [index] : []));
      const audit = statements.findIndex((query) => /from "audit_log"/.test(query));
      expect(reads).toHaveLength(3);
      // SQLite reads on the server's own thread: the audit log's page was read before the file's
      // last chunk, not after all of it. (PostgreSQL's reads never held the thread: its queries
      // wait on the network, and their order depends on the pool.)
      expect(audit).toBeGreaterThan(-1);
      if (logged.engine === 'sqlite') expect(audit).toBeLessThan(reads.at(-1)!);

      const ids = parseCsv(response.body)
        .slice(1)
        .map((row) => Number(row[0]));
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await logged.close();
    }
  });

  it('answers an error, not a 200 with a cut-off file, when the rows cannot be read', async () => {
    await sql`alter table donations rename to donations_away`.execute(t.db);
    try {
      const response = await get('/api/admin/export/donations.csv');
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.body).not.toContain('donor_username');
    } finally {
      await sql`alter table donations_away rename to donations`.execute(t.db);
    }
  });

  it('downloads requests and units', async () => {
    const patient = await createPatient(t, { first_name: 'Ravi', last_name: 'Shah' });
    const request = await insertRequest(t, patient.id, {
      bloodgroup: 'B-',
      units: 1,
      hospital_address: '+91 Hospital Road',
      created_at: NOW,
    });
    const [unitId] = await insertUnits(t, { bloodgroup: 'O-', count: 1, expires_on: '2026-04-01' });
    const [expiredId] = await insertUnits(t, { bloodgroup: 'A+', count: 1, expires_on: '2026-03-01' });
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/requests/${request.id}/approve`,
      headers: admin.headers,
      payload: { bloodgroup: 'O-' },
    });
    expect(approved.statusCode).toBe(200);

    const requests = await get('/api/admin/export/requests.csv');
    expect(requests.headers['content-disposition']).toBe('attachment; filename="requests-2026-03-10.csv"');
    const requestRows = parseCsv(requests.body);
    expect(requestRows[0]).toContain('hospital_address');
    expect(requestRows[1]).toEqual([
      String(request.id),
      String(patient.id),
      patient.username,
      'Ravi Shah',
      'B-',
      'red_cells',
      '1',
      '2026-03-20',
      'Dr. Rao',
      "'+91 Hospital Road",
      'Surgery',
      'approved',
      '',
      'O-',
      NOW_IN_CSV,
      NOW_IN_CSV,
    ]);

    const units = await get('/api/admin/export/units.csv');
    expect(units.headers['content-type']).toBe('text/csv; charset=utf-8');
    const unitRows = parseCsv(units.body);
    expect(unitRows[0]).toEqual([
      'id',
      'bloodgroup',
      'component',
      'parent_unit_id',
      'source',
      'donation_id',
      'collected_on',
      'expires_on',
      'status',
      'hold_reason',
      'expired',
      'request_id',
      'issued_at',
      'discarded_at',
      'discard_reason',
      'created_at',
    ]);
    const byId = new Map(unitRows.slice(1).map((row) => [row[0], row]));
    expect(byId.get(String(unitId))).toEqual([
      String(unitId),
      'O-',
      'red_cells',
      '',
      'manual',
      '',
      '2026-03-01',
      '2026-04-01',
      'issued',
      '',
      'no',
      String(request.id),
      NOW_IN_CSV,
      '',
      '',
      '2026-03-01T00:00:00+00:00',
    ]);
    expect(byId.get(String(expiredId))?.slice(8, 11)).toEqual(['available', '', 'yes']);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists every admin change newest first, with who, what and before/after, filterable by entity', async () => {
    const donor = await createDonor(t, { first_name: 'Asha', last_name: 'Kumar' });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/donors/${donor.id}`,
      headers: admin.headers,
      payload: { mobile: '9000000001' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: admin.headers,
      payload: { bloodgroup: 'A+', count: 1, collected_on: '2026-03-10' },
    });
    await t.app.inject({ method: 'DELETE', url: `/api/admin/donors/${donor.id}`, headers: admin.headers });

    const response = await get('/api/admin/audit?pageSize=3');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.pageSize).toBe(3);
    expect(body.total).toBeGreaterThanOrEqual(5);
    expect(body.items.map((entry: { action: string }) => entry.action)).toEqual([
      'donor.deactivated',
      'units.received',
      'donor.updated',
    ]);
    expect(body.items[2]).toEqual({
      id: expect.any(Number),
      at: NOW,
      actor: 'head.admin',
      action: 'donor.updated',
      entity: 'donor',
      entity_id: donor.id,
      detail: { before: { mobile: '9876543210' }, after: { mobile: '9000000001' } },
      // An admin has no first or last name: the username is the name.
      actor_name: 'head.admin',
      subject_name: 'Asha Kumar',
    });
    expect(body.items[0]).toMatchObject({ action: 'donor.deactivated', subject_name: 'Asha Kumar' });
    // Stock changes are about no one.
    expect(body.items[1]).toMatchObject({
      action: 'units.received',
      actor_name: 'head.admin',
      subject_name: null,
    });

    const ofDonor = (await get(`/api/admin/audit?entity=donor&entity_id=${donor.id}`)).json();
    expect(ofDonor.total).toBe(2);
    expect(ofDonor.items.map((entry: { action: string }) => entry.action)).toEqual([
      'donor.deactivated',
      'donor.updated',
    ]);
    const decisions = (await get('/api/admin/audit?entity=request')).json();
    expect(decisions.items.map((entry: { action: string }) => entry.action)).toEqual(['request.approved']);
  });

  it('finds changes by who made them and by the days they were made on (both included)', async () => {
    const entry = (actor: string, at: string) =>
      recordAudit(t.db, {
        actorId: null,
        actor,
        action: 'unit.discarded',
        entity: 'unit',
        entityId: 9001,
        at,
      });
    await entry('night.nurse', '2026-02-28T23:59:00.000Z');
    await entry('night.nurse', '2026-03-01T00:00:00.000Z');
    await entry('day.nurse', '2026-03-01T12:00:00.000Z');
    await entry('night.nurse', '2026-03-02T23:59:59.000Z');
    await entry('night.nurse', '2026-03-03T00:00:00.000Z');
    const ats = async (query: string) =>
      (await get(`/api/admin/audit?entity_id=9001&${query}`))
        .json<{ items: { at: string; actor: string }[] }>()
        .items.map((item) => `${item.actor} ${item.at.slice(0, 16)}`);

    expect(await ats('actor=NIGHT&from=2026-03-01&to=2026-03-02')).toEqual([
      'night.nurse 2026-03-02T23:59',
      'night.nurse 2026-03-01T00:00',
    ]);
    expect(await ats('from=2026-03-01&to=2026-03-01')).toEqual([
      'day.nurse 2026-03-01T12:00',
      'night.nurse 2026-03-01T00:00',
    ]);
    expect(await ats('actor=day')).toEqual(['day.nurse 2026-03-01T12:00']);
    // The wrong way round: nothing, never the whole log.
    expect(await ats('from=2026-03-02&to=2026-03-01')).toEqual([]);
    expect((await get('/api/admin/audit?from=2026-02-30')).statusCode).toBe(422);
  });

  it("names a donation's donor, a request's patient, the system and the acting admin", async () => {
    const named = await createAdmin(t, { username: 'chief' });
    await t.db
      .updateTable('users')
      .set({ first_name: 'Chief', last_name: '' })
      .where('id', '=', named.id)
      .execute();
    const donor = await createDonor(t, { first_name: 'Ravi', last_name: 'Iyer' });
    const patient = await createPatient(t, { first_name: 'Meera', last_name: 'Nair' });
    const donation = await insertDonation(t, donor.id, { bloodgroup: 'O+', units: 1 });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'O+', units: 1 });
    for (const url of [
      `/api/admin/donations/${donation.id}/reject`,
      `/api/admin/requests/${request.id}/reject`,
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: named.headers,
        payload: { reason: 'Test' },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    await t.db
      .insertInto('audit_log')
      .values({
        at: NOW,
        actor_id: null,
        actor: 'system',
        action: 'user.password_reset',
        entity: 'user',
        entity_id: named.id,
        detail: JSON.stringify({
          before: { password_hash: '$argon2id$secret' },
          after: { token: 'abc', nested: { otp: '1', kept: 1 } },
        }),
      })
      .execute();

    const [reset, rejectedRequest, rejectedDonation] = (await get('/api/admin/audit?pageSize=3')).json()
      .items;
    expect(rejectedDonation).toMatchObject({
      action: 'donation.rejected',
      actor_name: 'Chief',
      subject_name: 'Ravi Iyer',
    });
    expect(rejectedRequest).toMatchObject({
      action: 'request.rejected',
      actor_name: 'Chief',
      subject_name: 'Meera Nair',
    });
    expect(reset).toMatchObject({ actor: 'system', actor_name: 'System', subject_name: 'Chief' });
    // A password hash, a token or a one-time code never leaves the server, at any depth.
    expect(reset.detail).toEqual({ before: {}, after: { nested: { kept: 1 } } });
  });

  it("names a deferral's donor, when it is set and when it is lifted", async () => {
    const donor = await createDonor(t, { first_name: 'Sunil', last_name: 'Rao' });
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const set = await t.app.inject({
      method: 'POST',
      url: `/api/admin/donors/${donor.id}/deferrals`,
      headers: admin.headers,
      payload: { type: 'temporary', until, reason: 'Recent tattoo' },
    });
    expect(set.statusCode, set.body).toBe(201);
    const lifted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/deferrals/${set.json<{ id: number }>().id}/lift`,
      headers: admin.headers,
      payload: { reason: 'Entered in error' },
    });
    expect(lifted.statusCode, lifted.body).toBe(200);

    const entries = (await get('/api/admin/audit?entity=deferral')).json().items;
    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'deferral.lifted', subject_name: 'Sunil Rao' },
      { action: 'deferral.created', subject_name: 'Sunil Rao' },
    ]);
  });
});
