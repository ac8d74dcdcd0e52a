import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '@bloodbank/shared/dates';
import { createPatient, type TestUser } from './factories';
import { createTestApp, testEngine, type TestApp } from './test-app';

/**
 * A full disk (PRODUCT.md 3.9, issue 18): SQLite answers SQLITE_FULL and rolls the transaction back
 * by itself. Writes must then be answered 503 with the error shape, reads keep working, the log says
 * once that the disk is full (not thousands of "cannot rollback - no transaction is active"), and
 * writes succeed again once there is room. SQLite's own size limit (max_page_count) makes the disk
 * "full" for real, on the server's own connection.
 */
describe.skipIf(testEngine !== 'sqlite')('a full disk', () => {
  let t: TestApp;
  let patient: TestUser;
  let logText = '';
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => (logText += chunk.toString()));

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'warn' }, logStream: logs });
    patient = await createPatient(t);
  });
  afterAll(() => t.close());

  const submit = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: patient.headers,
      payload: {
        bloodgroup: 'B+',
        unit: 1,
        date: todayIn('UTC'),
        doctorname: 'Dr. Rao',
        hospitaladdress: 'City Hospital, Ward 4',
        reason: 'A reason long enough to fill the pages of the table a little faster than a short one would',
      },
    });

  it('answers 503 to writes and says once that the disk is full; reads go on; writes resume with room', async () => {
    expect((await submit()).statusCode).toBe(201);
    const [{ page_count: pages } = { page_count: 0 }] = (await sql<{ page_count: number }>`pragma page_count`.execute(t.db)).rows;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(t.db);

    let full: Awaited<ReturnType<typeof submit>> | undefined;
    for (let attempt = 0; attempt < 5_000 && !full; attempt += 1) {
      const response = await submit();
      if (response.statusCode !== 201) full = response;
    }
    expect(full?.statusCode).toBe(503);
    expect(full?.json()).toEqual({ detail: 'The service cannot save changes right now. Please try again later.', code: 'service_unavailable' });
    expect(full?.headers['x-content-type-options']).toBe('nosniff');

    // Writes batched together fail together, each with the same answer.
    const parallel = await Promise.all(Array.from({ length: 20 }, submit));
    expect(new Set(parallel.map((response) => response.statusCode))).toEqual(new Set([503]));

    const mine = await t.app.inject({ method: 'GET', url: '/api/requests/mine', headers: patient.headers });
    expect(mine.statusCode).toBe(200);

    const lines = logText.split('\n').filter(Boolean);
    expect(lines.filter((line) => line.includes('The database disk is full'))).toHaveLength(1);
    expect(logText).not.toContain('cannot rollback');
    expect(logText).not.toContain('unhandled error');

    await sql.raw(`pragma max_page_count = 1073741823`).execute(t.db);
    expect((await submit()).statusCode).toBe(201);
    expect(logText).toContain('Database outage over');
  });
});
