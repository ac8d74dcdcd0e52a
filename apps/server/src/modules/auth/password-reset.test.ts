import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createAdmin, createDonor, createPatient } from '../../../test/factories';
import { readOutbox } from '../../../test/support/smtp';
import { outboxDirectory } from '../notifications/mailer';

/**
 * Password reset by e-mail (PRODUCT.md 3.8): the same answer for every account, known or not; a
 * single-use link valid one hour; using it sets the new password and ends every session.
 */

const NOW = '2026-03-10T09:00:00Z';
const INVALID = { detail: 'This reset link is invalid or has expired.', code: 'invalid_reset_token' };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { PUBLIC_URL: 'https://bank.example.org' } });
});
afterAll(() => t.close());

const ask = (payload: object, ip = '10.0.0.1') => t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload, remoteAddress: ip });
const confirm = (token: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
const signIn = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: '10.9.9.9',
  });

/** The link e-mailed to `address`, once the background work and the queue have run. */
async function linkSentTo(address: string): Promise<string> {
  let link: string | undefined;
  await vi.waitFor(async () => {
    await t.app.runJobs();
    const mail = readOutbox(outboxDirectory(t.config.dataDir)).filter((m) => m.to[0] === address && m.subject === 'Reset your password');
    // The link says what it does: the body asks the reader to open it to choose a new password.
    link = /^Choose a new password: https:\/\/bank\.example\.org\/reset-password\?token=([\w-]+)$/m.exec(mail.at(-1)?.text ?? '')?.[1];
    expect(link).toBeDefined();
    // The request is answered before its work is done (the same answer for every account), and a
    // busy machine may take more than vi.waitFor's default second.
  }, { timeout: 10_000 });
  return link!;
}

describe('asking for a link (POST /api/auth/password-reset)', () => {
  it('answers the same for a known account, an unknown one and an address, and mails only the known', async () => {
    const donor = await createDonor(t, { email: 'known@example.org' });
    const known = await ask({ username: donor.username });
    const unknown = await ask({ username: 'nobody-here' });
    const byEmail = await ask({ email: 'KNOWN@example.org' });
    for (const response of [known, unknown, byEmail]) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ detail: 'If an account matches, we have sent a link to reset its password. It works for one hour.' });
    }
    const token = await linkSentTo('known@example.org');
    expect(token).toMatch(/^[\w-]{43}$/);
    // Once sent, the queue forgets the message: a copy of the database holds no usable link.
    const queued = await t.db.selectFrom('jobs').select('payload').execute();
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.filter((job) => job.payload.includes(token))).toEqual([]);
    // Nor in the write-ahead log, which a copy of DATA_DIR takes along: once a checkpoint has
    // caught up (the server's run PASSIVE, in the background), the next commit cuts the old log off.
    if (t.engine === 'sqlite') {
      await sql`pragma wal_checkpoint(PASSIVE)`.execute(t.db);
      await createDonor(t);
      const log = fs.readFileSync(path.join(t.config.dataDir, 'bloodbank.db-wal'));
      expect(log.length).toBeGreaterThan(0);
      expect(log.includes(Buffer.from(token))).toBe(false);
    }
    // Nor in the file's free bytes: a copy of bloodbank.db (a backup copies pages as they are).
    if (t.engine === 'sqlite') {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(t.db);
      const file = fs.readFileSync(path.join(t.config.dataDir, 'bloodbank.db'));
      expect(file.includes(Buffer.from(token))).toBe(false);
    }
    // Two links (by username and by address); nothing for the unknown account; the token is stored hashed only.
    const rows = await t.db.selectFrom('password_resets').select(['user_id', 'token_hash']).execute();
    expect(rows.map((row) => row.user_id)).toEqual([donor.id, donor.id]);
    const mails = readOutbox(outboxDirectory(t.config.dataDir));
    for (const row of rows) expect(mails.some((mail) => mail.raw.includes(row.token_hash))).toBe(false);
  });

  it('needs exactly one of username and e-mail (422), and limits requests per address (429)', async () => {
    expect((await ask({})).statusCode).toBe(422);
    expect((await ask({ username: 'a', email: 'a@example.org' })).json().errors).toEqual({ username: 'Enter your username or your e-mail address' });
    const answers = [];
    for (let n = 0; n < 10; n++) answers.push((await ask({ username: `someone${n}` }, '10.0.0.77')).statusCode);
    expect(answers.every((status) => status === 202)).toBe(true);
    const limited = await ask({ username: 'someone10' }, '10.0.0.77');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ detail: 'Too many reset requests. Please try again later.' });
    // How long to wait, as the sign-in's 429 says it: the hour that the ten requests opened.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });
  it('counts the reset requests of an IPv6 client by its /64, so rotating through it gets no more', async () => {
    const answers = [];
    for (let n = 1; n <= 10; n++) answers.push((await ask({ username: `rotating${n}` }, `2001:db8:77:1::${n.toString(16)}`)).statusCode);
    expect(answers.every((status) => status === 202)).toBe(true);
    expect((await ask({ username: 'rotating11' }, '2001:db8:77:1:ffff::b')).statusCode).toBe(429);
    expect((await ask({ username: 'rotating12' }, '2001:db8:77:2::1')).statusCode).toBe(202);
  });

  it('sends a link for each account sharing the address, each naming its username, so a stranger who registers with it cannot block the owner', async () => {
    const owner = await createDonor(t, { email: 'family@example.org' });
    // Someone else types the same address (another case) on a new account.
    const copycat = await createPatient(t, { email: 'Family@Example.org' });
    expect((await ask({ email: 'family@example.org' }, '10.0.0.5')).statusCode).toBe(202);
    const links = new Map<string, string>();
    await vi.waitFor(
      async () => {
        await t.app.runJobs();
        for (const mail of readOutbox(outboxDirectory(t.config.dataDir))) {
          if (mail.to[0]?.toLowerCase() !== 'family@example.org' || mail.subject !== 'Reset your password') continue;
          const account = /your account "([^"]+)"/.exec(mail.text)?.[1];
          const token = /reset-password\?token=([\w-]+)$/m.exec(mail.text)?.[1];
          if (account && token) links.set(account, token);
        }
        expect([...links.keys()].sort()).toEqual([copycat.username, owner.username].sort());
      },
      { timeout: 10_000 },
    );
    // The owner's link resets the owner's account only.
    expect((await confirm(links.get(owner.username)!, 'owner-new-password-1')).statusCode).toBe(204);
    expect((await signIn(owner.username, 'owner-new-password-1')).statusCode).toBe(200);
    expect((await signIn(copycat.username, copycat.password)).statusCode).toBe(200);
  });
});

describe('links to one address', () => {
  it("never keeps an account's first link of the hour from it, whatever was asked for the others on its address", async () => {
    const owner = await createDonor(t, { email: 'owner@example.org' });
    const sneaks = await Promise.all([createDonor(t, { email: 'owner@example.org' }), createDonor(t, { email: 'owner@example.org' })]);
    const linksOf = async (userId: number) =>
      Number((await t.db.selectFrom('password_resets').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow()).count);
    // A stranger spends the address's six links on their own two accounts.
    for (const [index, sneak] of sneaks.entries()) {
      for (let n = 0; n < 3; n += 1) {
        expect((await ask({ username: sneak.username }, `10.0.9.${index * 3 + n}`)).statusCode).toBe(202);
        await vi.waitFor(async () => expect(await linksOf(sneak.id)).toBe(n + 1), { timeout: 10_000 });
      }
    }
    // The owner still gets theirs.
    expect((await ask({ username: owner.username }, '10.0.9.50')).statusCode).toBe(202);
    await vi.waitFor(async () => expect(await linksOf(owner.id)).toBe(1), { timeout: 10_000 });
  });

  it('mails an address at most 6 links an hour beyond each account\'s first, however many accounts carry it', async () => {
    const crowd = await Promise.all(Array.from({ length: 5 }, () => createDonor(t, { email: 'crowded@example.org' })));
    const linksIssued = async () =>
      Number(
        (
          await t.db
            .selectFrom('password_resets')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('user_id', 'in', crowd.map((donor) => donor.id))
            .executeTakeFirstOrThrow()
        ).count,
      );
    // The link is issued after the answer: waited for, one request after the other.
    expect((await ask({ email: 'crowded@example.org' }, '10.0.8.1')).statusCode).toBe(202);
    await vi.waitFor(async () => expect(await linksIssued()).toBe(5), { timeout: 10_000 });
    expect((await ask({ email: 'crowded@example.org' }, '10.0.8.2')).statusCode).toBe(202);
    await vi.waitFor(async () => expect(await linksIssued()).toBe(6), { timeout: 10_000 });
    expect((await ask({ email: 'crowded@example.org' }, '10.0.8.3')).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await linksIssued()).toBe(6);
    await t.app.runJobs();
    const mailed = readOutbox(outboxDirectory(t.config.dataDir)).filter((mail) => mail.to[0] === 'crowded@example.org');
    expect(mailed).toHaveLength(6);
  });
});

describe('using the link (POST /api/auth/password-reset/confirm)', () => {
  it('sets the new password once and ends every session; the old password stops working', async () => {
    const patient = await createPatient(t, { email: 'reset-me@example.org' });
    await ask({ username: patient.username });
    const token = await linkSentTo('reset-me@example.org');

    expect((await confirm(token, '123')).statusCode).toBe(422);
    expect((await confirm(token, 'a-new-password-7')).statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: patient.headers });
    expect(me.statusCode).toBe(401);
    expect((await signIn(patient.username, patient.password)).statusCode).toBe(401);
    expect((await signIn(patient.username, 'a-new-password-7')).statusCode).toBe(200);

    const again = await confirm(token, 'another-password-8');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
  });

  it('ends the links mailed to the old address when staff change the e-mail address, and tells the old address', async () => {
    const admin = await createAdmin(t);
    const donor = await createDonor(t, { first_name: 'Manoj', email: 'manoj.typo@example.org' });
    await ask({ username: donor.username });
    const token = await linkSentTo('manoj.typo@example.org');

    const corrected = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/donors/${donor.id}`,
      headers: admin.headers,
      payload: { email: 'manoj@example.org' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const takeover = await confirm(token, 'taken-over-1');
    expect(takeover.statusCode).toBe(400);
    expect(takeover.json()).toEqual(INVALID);
    expect((await signIn(donor.username, 'taken-over-1')).statusCode).toBe(401);

    await t.app.runJobs();
    const told = readOutbox(outboxDirectory(t.config.dataDir)).filter((mail) => mail.subject === 'An e-mail address was changed');
    expect(told.map((mail) => mail.to[0])).toEqual(['manoj.typo@example.org']);
    expect(told[0]!.text).toContain(
      'The blood bank changed the e-mail address of an account that used this address, so its messages no longer come here. If you think this is a mistake, please contact the blood bank.',
    );
    // A mistyped address is often a stranger's: not whose account, where it went, or what it is for.
    for (const secret of [donor.username, 'Manoj', 'manoj@example.org', '/donor/']) expect(told[0]!.text).not.toContain(secret);
    // A new link goes to the corrected address, and works.
    await ask({ username: donor.username }, '10.0.0.2');
    expect((await confirm(await linkSentTo('manoj@example.org'), 'a-new-password-9')).statusCode).toBe(204);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['far too long', 'A'.repeat(5_000)],
  ])('answers an %s token as a link that does not work: 400, not a form mistake', async (_case, token) => {
    const response = await confirm(token, 'a-new-password-7');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(INVALID);
  });

  it('refuses an altered token and an expired one with the same message', async () => {
    const donor = await createDonor(t, { email: 'late@example.org' });
    await ask({ username: donor.username });
    const token = await linkSentTo('late@example.org');
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await confirm(altered, 'a-new-password-7')).json()).toEqual(INVALID);
    t.clock.set(new Date(Date.parse(NOW) + 61 * 60_000));
    try {
      const expired = await confirm(token, 'a-new-password-7');
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual(INVALID);
    } finally {
      t.clock.set(NOW);
    }
    expect((await signIn(donor.username, donor.password)).statusCode).toBe(200);
  });
});
