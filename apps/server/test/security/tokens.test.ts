import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_INVALID } from '../../src/plugins/access';
import { createAdmin, createDonor, createPatient, type TestUser } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/**
 * A token is honoured only when it is ours (HS256 with our secret, untouched), current (not
 * expired) and its user still holds it (active, same token version, same role). Everything else
 * is a 401 with the same message, on a route any signed-in user may call and on an admin route.
 */

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const NOW = '2026-05-04T10:00:00.000Z';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { JWT_SECRET: SECRET, RATE_LIMIT_MAX: '1000000' } });
});
afterAll(() => t.close());

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A JWT put together by hand: any header, any claims, signed with any key and algorithm (or not at all). */
function craftToken(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  sign: { key: string; algorithm: 'sha256' | 'sha384' | 'sha512' } | 'unsigned' = {
    key: SECRET,
    algorithm: 'sha256',
  },
): string {
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  if (sign === 'unsigned') return `${unsigned}.`;
  return `${unsigned}.${crypto.createHmac(sign.algorithm, sign.key).update(unsigned).digest('base64url')}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const claimsOf = (user: TestUser, extra: Record<string, unknown> = {}) => ({
  sub: String(user.id),
  role: user.role,
  ver: 0,
  iat: nowSeconds(),
  ...extra,
});

async function expectRefused(authorization: string) {
  for (const url of ['/api/users/me', '/api/admin/dashboard']) {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(401);
    expect(response.json<{ detail: string }>().detail).toMatch(
      /^(Not authenticated|Your session has expired)/,
    );
  }
}

const me = (authorization: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization } });

describe('tokens', () => {
  it('a hand-made HS256 token with our secret is honoured (so the refusals below are about what was changed)', async () => {
    const admin = await createAdmin(t);
    const token = craftToken({ alg: 'HS256', typ: 'JWT' }, claimsOf(admin, { exp: nowSeconds() + 600 }));
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a token whose claims were changed after signing (a donor making itself admin)', async () => {
    const donor = await createDonor(t);
    const [header, , signature] = donor.token.split('.');
    const forged = `${header}.${base64url(JSON.stringify(claimsOf(donor, { role: 'ADMIN' })))}.${signature}`;
    await expectRefused(`Bearer ${forged}`);
    // Flipping one character of the signature is enough too.
    const flipped =
      donor.token.slice(0, -2) + (donor.token.at(-2) === 'A' ? 'B' : 'A') + donor.token.slice(-1);
    await expectRefused(`Bearer ${flipped}`);
  });

  it('refuses an unsigned token (alg none), whatever it claims', async () => {
    const donor = await createDonor(t);
    for (const alg of ['none', 'None', 'NONE']) {
      await expectRefused(
        `Bearer ${craftToken({ alg, typ: 'JWT' }, claimsOf(donor, { role: 'ADMIN' }), 'unsigned')}`,
      );
      await expectRefused(`Bearer ${craftToken({ alg, typ: 'JWT' }, claimsOf(donor), 'unsigned')}`);
    }
  });

  it('refuses other algorithms and other keys', async () => {
    const donor = await createDonor(t);
    await expectRefused(
      `Bearer ${craftToken({ alg: 'HS512', typ: 'JWT' }, claimsOf(donor), { key: SECRET, algorithm: 'sha512' })}`,
    );
    await expectRefused(
      `Bearer ${craftToken({ alg: 'HS384', typ: 'JWT' }, claimsOf(donor), { key: SECRET, algorithm: 'sha384' })}`,
    );
    await expectRefused(
      `Bearer ${craftToken({ alg: 'HS256', typ: 'JWT' }, claimsOf(donor), { key: 'some-other-secret-that-is-also-long-enough', algorithm: 'sha256' })}`,
    );
    // An RS256 header over an HMAC signature (the classic key-confusion attempt).
    await expectRefused(`Bearer ${craftToken({ alg: 'RS256', typ: 'JWT' }, claimsOf(donor))}`);
  });

  it('refuses an expired token, and one not valid yet', async () => {
    const donor = await createDonor(t);
    await expectRefused(
      `Bearer ${craftToken({ alg: 'HS256', typ: 'JWT' }, claimsOf(donor, { iat: nowSeconds() - 7200, exp: nowSeconds() - 60 }))}`,
    );
    await expectRefused(
      `Bearer ${craftToken({ alg: 'HS256', typ: 'JWT' }, claimsOf(donor, { nbf: nowSeconds() + 3600 }))}`,
    );
    // One the server issued itself with a short life stops working once that life is over.
    const shortLived = await t.app.jwt.sign(
      { sub: String(donor.id), role: 'DONOR', ver: 0 },
      { expiresIn: 1 },
    );
    expect((await me(`Bearer ${shortLived}`)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await expectRefused(`Bearer ${shortLived}`);
  });

  it('the tokens the sign-in hands out carry an expiry', async () => {
    const donor = await createDonor(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: `username=${donor.username}&password=${donor.password}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const token = response.json<{ access_token: string }>().access_token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: number;
      iat: number;
    };
    expect(claims.exp).toBeDefined();
    expect((claims.exp ?? 0) - claims.iat).toBe(12 * 3600);
  });

  it('refuses the token of a deactivated account at once', async () => {
    const admin = await createAdmin(t);
    const donor = await createDonor(t);
    const patient = await createPatient(t);
    expect((await me(donor.headers.authorization)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/donors/${donor.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/patients/${patient.id}`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(200);
    await expectRefused(donor.headers.authorization);
    await expectRefused(patient.headers.authorization);
    expect((await me(donor.headers.authorization)).json<{ detail: string }>().detail).toBe(SESSION_INVALID);
  });

  it('refuses a token issued before the token version was bumped (password reset)', async () => {
    const donor = await createDonor(t);
    await t.db.updateTable('users').set({ token_version: 1 }).where('id', '=', donor.id).execute();
    await expectRefused(donor.headers.authorization);
    // A token for the new version works.
    const fresh = await t.app.jwt.sign({ sub: String(donor.id), role: 'DONOR', ver: 1 });
    expect((await me(`Bearer ${fresh}`)).statusCode).toBe(200);
  });

  it('refuses a token whose role no longer matches the account, or whose account does not exist', async () => {
    const donor = await createDonor(t);
    await expectRefused(`Bearer ${await t.app.jwt.sign({ sub: String(donor.id), role: 'ADMIN', ver: 0 })}`);
    await expectRefused(`Bearer ${await t.app.jwt.sign({ sub: '2000000000', role: 'ADMIN', ver: 0 })}`);
    for (const sub of ['abc', '1.5', '-1', '', '1e3', '99999999999999999999']) {
      await expectRefused(`Bearer ${await t.app.jwt.sign({ sub, role: 'ADMIN', ver: 0 })}`);
    }
  });

  it('refuses malformed authorization headers', async () => {
    const donor = await createDonor(t);
    for (const header of [
      donor.token,
      `Basic ${base64url('admin:admin')}`,
      'Bearer',
      'Bearer ',
      'Bearer a.b.c',
      'Bearer ....',
      `Bearer ${'x'.repeat(10_000)}`,
      `Bearer ${donor.token} ${donor.token}`,
      `Bearer ${base64url('{"alg":"HS256"}')}`,
    ]) {
      await expectRefused(header);
    }
  });
});
