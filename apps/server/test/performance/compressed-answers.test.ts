import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM_BYTES, ReusedJson } from '../../src/lib/reused-json';
import { createAdmin, createPatient, type TestUser } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/**
 * Reused answers (lib/reused-json.ts) of a kilobyte or more go compressed to a client that accepts
 * gzip, as every browser does, and plain to one that does not; the same bytes either way.
 */
let t: TestApp;
let admin: TestUser;
let patient: TestUser;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-06-15T10:00:00Z' });
  [admin, patient] = [await createAdmin(t), await createPatient(t)];
});
afterAll(() => t.close());

const CHROMIUM = 'gzip, deflate, br, zstd';
const get = (url: string, user: TestUser, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...user.headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

describe('compressed reused answers', () => {
  it("sends a large answer gzip-compressed to a browser, the same JSON as a client that asks for none gets, and says it varies", async () => {
    const plain = await get('/api/admin/dashboard', admin);
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(COMPRESS_FROM_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');

    for (const acceptEncoding of [CHROMIUM, 'gzip', 'GZIP', 'br;q=1, gzip;q=0.5', 'gzip;q=0.01', '*']) {
      const compressed = await get('/api/admin/dashboard', admin, acceptEncoding);
      expect(compressed.statusCode, acceptEncoding).toBe(200);
      expect(compressed.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(compressed.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(compressed.headers.vary).toBe('accept-encoding');
      expect(Number(compressed.headers['content-length'])).toBe(compressed.rawPayload.length);
      // A fifth of the size or less: a dashboard is mostly repeated keys.
      expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
      expect(zlib.gunzipSync(compressed.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('sends it plain to a client that refuses gzip or offers only what the server does not make', async () => {
    for (const acceptEncoding of ['gzip;q=0', 'gzip;q=0, *', 'br, GZIP;Q=0.000', 'identity', 'br', '']) {
      const response = await get('/api/admin/dashboard', admin, acceptEncoding);
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(() => response.json(), acceptEncoding).not.toThrow();
    }
  });

  it('follows a change: the compressed answer after a change is the new one', async () => {
    const before = zlib.gunzipSync((await get('/api/admin/dashboard', admin, CHROMIUM)).rawPayload);
    const received = await t.app.inject({
      method: 'POST',
      url: '/api/admin/units',
      headers: admin.headers,
      payload: { bloodgroup: 'AB-', count: 2, collected_on: '2026-06-15' },
    });
    expect(received.statusCode).toBe(201);
    const after = JSON.parse(zlib.gunzipSync((await get('/api/admin/dashboard', admin, CHROMIUM)).rawPayload).toString()) as {
      totalBloodUnits: number;
    };
    expect(after.totalBloodUnits).toBe((JSON.parse(before.toString()) as { totalBloodUnits: number }).totalBloodUnits + 2);
  });

  it('leaves a small answer plain, with no Vary, whatever the client accepts', async () => {
    const response = await get('/api/patient/summary', patient, CHROMIUM);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESS_FROM_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.json()).toMatchObject({ total: 0, pending: 0 });
  });

  it('keeps a compressed answer in memory of its own, not in a slice of a larger chunk', () => {
    const answer = new ReusedJson(Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, id) => ({ id, status: 'pending' })) })));
    const gzipped = answer.gzipped();
    expect(gzipped.length).toBeLessThan(answer.bytes.length / 5);
    expect(gzipped.buffer.byteLength).toBe(gzipped.length);
    expect(answer.gzipped()).toBe(gzipped);
    expect(zlib.gunzipSync(gzipped).equals(answer.bytes)).toBe(true);
  });
});
