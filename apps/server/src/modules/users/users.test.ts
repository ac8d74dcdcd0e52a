import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, createPatient } from '../../../test/factories';
import { readOutbox } from '../../../test/support/smtp';
import { outboxDirectory } from '../notifications/mailer';

/**
 * A donor or patient corrects their own contact details (PATCH /api/users/me): the registration
 * rules for each field sent; the blood group and the account itself are never theirs to change; a
 * new e-mail address is told to the old one.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-03-10T09:00:00Z' });
});
afterAll(() => t.close());

const patchMe = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: '/api/users/me', headers, payload: payload as object });

describe('PATCH /api/users/me', () => {
  it('changes what is sent, answers the whole user, and records before and after of exactly the changed fields', async () => {
    const donor = await createDonor(t, { first_name: 'Asha', email: 'asha.old@example.org', bloodgroup: 'B-' });
    const response = await patchMe(donor.headers, {
      first_name: ' Asha ',
      mobile: '9123456780',
      address: '14 Hill Road, Pune',
      // Not the donor's to change: ignored.
      bloodgroup: 'AB+',
      username: 'someone-else',
      role: 'ADMIN',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      username: donor.username,
      first_name: 'Asha',
      mobile: '9123456780',
      address: '14 Hill Road, Pune',
      email: 'asha.old@example.org',
      bloodgroup: 'B-',
      userType: 'donor',
    });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'detail'])
      .where('entity', '=', 'user')
      .where('entity_id', '=', donor.id)
      .where('action', '=', 'user.details_updated')
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe(donor.username);
    expect(JSON.parse(audit.detail)).toEqual({
      before: { mobile: expect.any(String), address: expect.any(String) },
      after: { mobile: '9123456780', address: '14 Hill Road, Pune' },
    });
    // Signing in still works as before: the account is untouched.
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: donor.headers });
    expect(me.json()).toMatchObject({ mobile: '9123456780', bloodgroup: 'B-' });
  });

  it('refuses a field that breaks a registration rule with its message, and changes nothing', async () => {
    const patient = await createPatient(t, { first_name: 'Ravi' });
    const response = await patchMe(patient.headers, { first_name: '', email: 'not-an-address', mobile: '12345' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      first_name: 'First name is required',
      email: 'Invalid email address',
      mobile: 'Please enter a valid 10-digit mobile number',
    });
    // A number or a list where text belongs is not a missing field.
    const wrongTypes = await patchMe(patient.headers, { first_name: 123, mobile: 9876543210, address: ['1 Road'] });
    expect(wrongTypes.statusCode).toBe(422);
    expect(wrongTypes.json().errors).toEqual({ first_name: 'Must be text', mobile: 'Must be text', address: 'Must be text' });
    const empty = await patchMe(patient.headers, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toContain('Change at least one field');
    const row = await t.db.selectFrom('users').select(['first_name']).where('id', '=', patient.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Ravi');
  });

  it('changes the e-mail address only with the current password, counted as a sign-in attempt', async () => {
    const donor = await createDonor(t, { email: 'guarded@example.org' });
    const withoutPassword = await patchMe(donor.headers, { email: 'thief@example.org' });
    expect(withoutPassword.statusCode).toBe(422);
    expect(withoutPassword.json().errors).toEqual({ current_password: 'Enter your current password to change your e-mail address' });
    const wrong = await patchMe(donor.headers, { email: 'thief@example.org', current_password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ current_password: 'Your current password is not correct' });
    // A stolen session cannot guess it: wrong passwords count against the sign-in limit.
    for (let attempt = 0; attempt < 4; attempt++) await patchMe(donor.headers, { email: 'thief@example.org', current_password: `guess-${attempt}` });
    const limited = await patchMe(donor.headers, { email: 'thief@example.org', current_password: donor.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many wrong passwords\. Please try again in \d+ minutes?\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const row = await t.db.selectFrom('users').select('email').where('id', '=', donor.id).executeTakeFirstOrThrow();
    expect(row.email).toBe('guarded@example.org');
    // The other fields need no password.
    expect((await patchMe(donor.headers, { address: '3 Quiet Lane' })).statusCode).toBe(200);
  });

  it('tells the old address when the e-mail changes, ends the reset links sent there, and sends messages to the new one after', async () => {
    const donor = await createDonor(t, { first_name: 'Meera', email: 'meera.old@example.org' });
    await t.db
      .insertInto('password_resets')
      .values({ user_id: donor.id, token_hash: 'f'.repeat(64), expires_at: '2026-03-10T10:00:00Z', created_at: '2026-03-10T08:30:00Z' })
      .execute();
    const changed = await patchMe(donor.headers, { email: 'meera.new@example.org', current_password: donor.password });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ email: 'meera.new@example.org' });
    const links = await t.db.selectFrom('password_resets').select('used_at').where('user_id', '=', donor.id).execute();
    expect(links).toEqual([{ used_at: '2026-03-10T09:00:00.000Z' }]);
    await t.app.runJobs();
    const mails = readOutbox(outboxDirectory(t.config.dataDir)).filter((mail) => mail.subject === 'Your e-mail address was changed');
    expect(mails.map((mail) => mail.to[0])).toEqual(['meera.old@example.org']);
    expect(mails[0]!.text).toContain(
      `The e-mail address of your blood bank account "${donor.username}" was changed to meera.new@example.org.`,
    );
    // An edit that changes nothing writes nothing, asks no password and tells nobody.
    expect((await patchMe(donor.headers, { email: 'meera.new@example.org' })).statusCode).toBe(200);
    // The same mailbox in other letters' case is kept as typed, and tells nobody either.
    const recased = await patchMe(donor.headers, { email: 'Meera.New@example.org', current_password: donor.password });
    expect(recased.json()).toMatchObject({ email: 'Meera.New@example.org' });
    await t.app.runJobs();
    expect(readOutbox(outboxDirectory(t.config.dataDir)).filter((mail) => mail.subject === 'Your e-mail address was changed')).toHaveLength(1);
  });
});
