import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, signInForm } from '../../../test/factories';

/**
 * A session in use is renewed (POST /api/auth/renew): a new token for the same session, so a
 * password change still ends it, and never beyond a week after its owner last gave their password.
 */

const NOW = '2026-03-10T09:00:00.000Z';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
});
afterAll(() => t.close());

const renew = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/renew', headers: { authorization: `Bearer ${token}` } });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { auth_time: number; exp: number; iat: number; ver: number };
const at = (offsetMs: number) => t.clock.set(new Date(Date.parse(NOW) + offsetMs).toISOString());

describe('renewing a session', () => {
  it('answers a working token of the same session that keeps its sign-in time; a password change still ends it', async () => {
    const donor = await createDonor(t);
    at(0);
    const signedIn = (await signInForm(t, donor.username, donor.password)).json<{ access_token: string }>().access_token;
    at(5 * 3_600_000);
    const response = await renew(signedIn);
    expect(response.statusCode).toBe(200);
    const renewed = response.json<{ access_token: string; user_type: string; user_id: number }>();
    expect(renewed).toMatchObject({ user_type: 'donor', user_id: donor.id });
    expect((await me(renewed.access_token)).statusCode).toBe(200);
    expect(claimsOf(renewed.access_token).auth_time).toBe(Date.parse(NOW) / 1000);
    expect(claimsOf(renewed.access_token).ver).toBe(claimsOf(signedIn).ver);

    // The renewed session is the same one: changing the password ends it too.
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/password',
      headers: { authorization: `Bearer ${signedIn}` },
      payload: { current_password: donor.password, new_password: 'another-pass-1' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(renewed.access_token)).statusCode).toBe(401);
    expect((await renew(renewed.access_token)).statusCode).toBe(401);
    at(0);
  });

  it('refuses to renew a session signed in more than seven days ago (403), which still works until it ends', async () => {
    const donor = await createDonor(t);
    at(0);
    const signedIn = (await signInForm(t, donor.username, donor.password)).json<{ access_token: string }>().access_token;
    at(6 * 86_400_000);
    const renewed = (await renew(signedIn)).json<{ access_token: string }>().access_token;
    at(7 * 86_400_000 + 60_000);
    const refused = await renew(renewed);
    expect(refused.statusCode).toBe(403);
    // A renewal on the week's last minutes lasts only what is left of it, not a whole TOKEN_TTL.
    at(7 * 86_400_000 - 300_000);
    const last = claimsOf((await renew(renewed)).json<{ access_token: string }>().access_token);
    expect(last.exp - last.iat).toBeLessThanOrEqual(300);
    expect(last.exp - last.iat).toBeGreaterThan(240);
    at(7 * 86_400_000 + 60_000);
    expect(refused.json().detail).toBe(
      'This session started more than 7 days ago and cannot be renewed. Please log in again when it ends.',
    );
    expect((await me(renewed)).statusCode).toBe(200);
    at(0);
  });

  it('renews a token from before sign-in times were written, counting the week from when it was issued', async () => {
    const donor = await createDonor(t);
    const renewed = await renew(donor.token);
    expect(renewed.statusCode).toBe(200);
    expect(claimsOf(renewed.json<{ access_token: string }>().access_token).auth_time).toBe(claimsOf(donor.token).iat);
  });

  it('needs a session (401)', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/renew' })).statusCode).toBe(401);
  });
});
