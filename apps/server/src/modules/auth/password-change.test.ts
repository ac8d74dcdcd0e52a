import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient, signInForm, type TestUser } from '../../../test/factories';
import { readOutbox } from '../../../test/support/smtp';
import { outboxDirectory } from '../notifications/mailer';

/**
 * A signed-in user changes their own password (POST /api/users/me/password): with the current one,
 * counted as a sign-in; every other session and every reset link ends; this device gets a new token;
 * the account's address is told.
 */

const NOW = '2026-03-10T09:00:00Z';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { PUBLIC_URL: 'https://bank.example.org' } });
});
afterAll(() => t.close());

const change = (user: { token: string }, body: object, remoteAddress = '10.1.1.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/me/password',
    headers: { authorization: `Bearer ${user.token}` },
    payload: body,
    remoteAddress,
  });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });

async function mailsTo(address: string, subject: string) {
  await t.app.runJobs();
  return readOutbox(outboxDirectory(t.config.dataDir)).filter((mail) => mail.to[0] === address && mail.subject === subject);
}

describe('changing your own password', () => {
  it('sets the new password, ends the other sessions and the reset links, keeps this device signed in and tells the address', async () => {
    const donor = await createDonor(t, { email: 'asha@example.org', first_name: 'Asha' });
    // A reset link asked for earlier, and a second device signed in.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { username: donor.username } })).statusCode).toBe(202);
    let resetToken = '';
    await vi.waitFor(async () => {
      const [mail] = await mailsTo('asha@example.org', 'Reset your password');
      resetToken = /reset-password\?token=([\w-]+)$/m.exec(mail?.text ?? '')?.[1] ?? '';
      expect(resetToken).not.toBe('');
    }, { timeout: 10_000 });
    const otherDevice = (await signInForm(t, donor.username, donor.password)).json<{ access_token: string }>().access_token;

    const response = await change(donor, { current_password: donor.password, new_password: 'a-brand-new-one' });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ access_token: string; token_type: string; user_type: string; user_id: number }>();
    expect(answer).toMatchObject({ token_type: 'bearer', user_type: 'donor', user_id: donor.id });

    // This device goes on with the new token; the old one and the other device's are ended.
    expect((await me(answer.access_token)).statusCode).toBe(200);
    expect((await me(donor.token)).statusCode).toBe(401);
    expect((await me(otherDevice)).statusCode).toBe(401);
    // Only the new password signs in; the link sent before no longer opens the account.
    expect((await signInForm(t, donor.username, donor.password, '10.2.2.2')).statusCode).toBe(401);
    expect((await signInForm(t, donor.username, 'a-brand-new-one', '10.2.2.2')).statusCode).toBe(200);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token: resetToken, password: 'stranger-pass-1' } });
    expect(reset.statusCode).toBe(400);

    // Told by e-mail, with the way back in if it was not them, and never the password.
    const [notice] = await mailsTo('asha@example.org', 'Your password was changed');
    expect(notice?.text).toContain(`The password of your blood bank account "${donor.username}" was changed`);
    expect(notice?.text).toContain('https://bank.example.org/forgot-password');
    expect(notice?.raw).not.toContain('a-brand-new-one');
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor', 'detail']).where('entity_id', '=', donor.id).where('action', '=', 'password.changed').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'password.changed', actor: donor.username });
    expect(audit[0]?.detail).not.toContain('a-brand-new-one');
  });

  it('refuses a wrong current password on its field and changes nothing; repeated guesses are stopped (429)', async () => {
    const patient = await createPatient(t);
    const wrong = await change(patient, { current_password: 'not-my-password', new_password: 'a-brand-new-one' }, '10.3.3.3');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ current_password: 'Your current password is not correct' });
    expect((await me(patient.token)).statusCode).toBe(200);
    expect((await signInForm(t, patient.username, patient.password, '10.3.3.4')).statusCode).toBe(200);

    // A stolen session cannot guess the password: the attempts count as failed sign-ins do.
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) statuses.push((await change(patient, { current_password: `guess-${n}`, new_password: 'a-brand-new-one' }, '10.3.3.3')).statusCode);
    expect(statuses).toContain(429);
    const limited = await change(patient, { current_password: patient.password, new_password: 'a-brand-new-one' }, '10.3.3.3');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many wrong passwords\. Please try again in \d+ minutes?\.$/);
    expect((await signInForm(t, patient.username, patient.password, '10.3.3.5')).statusCode).toBe(200);
  });

  it('checks the new password as registration does, and that it differs from the current one', async () => {
    const donor = await createDonor(t);
    const cases: [object, Record<string, string>][] = [
      [{ current_password: donor.password, new_password: 'short' }, { new_password: 'Password must be at least 6 characters' }],
      [{ current_password: donor.password, new_password: donor.password }, { new_password: 'Choose a password different from your current one' }],
      [{ new_password: 'a-brand-new-one' }, { current_password: 'Enter your current password' }],
      [{ current_password: '', new_password: '' }, { current_password: 'Enter your current password', new_password: 'Password is required' }],
    ];
    for (const [body, errors] of cases) {
      const response = await change(donor, body);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual(errors);
    }
    expect((await me(donor.token)).statusCode).toBe(200);
  });

  it('lets an admin change their own password, with no e-mail when the account has no address', async () => {
    const admin = await createAdmin(t);
    const response = await change(admin, { current_password: admin.password, new_password: 'admin-new-pass' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user_type: 'admin', user_id: admin.id });
    expect((await signInForm(t, admin.username, 'admin-new-pass', '10.4.4.4')).statusCode).toBe(200);
  });

  it('applies one of two changes sent at once from the same session; the other is told the session ended', async () => {
    const donor: TestUser = await createDonor(t);
    const answers = await Promise.all([
      change(donor, { current_password: donor.password, new_password: 'first-new-pass' }),
      change(donor, { current_password: donor.password, new_password: 'second-new-pass' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    const winner = answers.findIndex((answer) => answer.statusCode === 200) === 0 ? 'first-new-pass' : 'second-new-pass';
    const loser = winner === 'first-new-pass' ? 'second-new-pass' : 'first-new-pass';
    expect((await signInForm(t, donor.username, winner, '10.5.5.5')).statusCode).toBe(200);
    expect((await signInForm(t, donor.username, loser, '10.5.5.5')).statusCode).toBe(401);
  });
});
