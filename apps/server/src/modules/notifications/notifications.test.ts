import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationList } from '@bloodbank/shared/notifications';
import { addDays } from '@bloodbank/shared/dates';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createDonor, createPatient, TEST_PASSWORD, type TestUser } from '../../../test/factories';
import { insertRequest, insertUnits } from '../../../test/admin-fixtures';
import { book, collect, donationForm, insertDonationRow, NEGATIVE_RESULTS, recordResults, setToday, staffOf } from '../../../test/donation-helpers';
import { freePort, readOutbox, startSmtpServer, type ReceivedMail } from '../../../test/support/smtp';
import { EMAILS_PER_ADDRESS } from './mail-budget';
import { countPendingJobs } from './job-queue';
import { outboxDirectory } from './mailer';
import { formatFeedDate, formatFeedDateWithYear } from '../donations/donation-activity';

/**
 * Telling people (PRODUCT.md 3.8): the in-app list, and the same message by e-mail through the
 * persistent queue: to a real SMTP server started here (smtp-server), or as .eml files in the
 * outbox without SMTP_URL; a mail server that refuses or is down never fails the request, and the
 * message arrives once it is back.
 */

const TODAY = '2026-03-10';
const get = (t: TestApp, url: string, as: TestUser) => t.app.inject({ method: 'GET', url, headers: as.headers });
const post = (t: TestApp, url: string, as: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload ? { payload } : {}) });
const listOf = async (t: TestApp, user: TestUser) => {
  const response = await get(t, '/api/notifications', user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<NotificationList>();
};

describe('without SMTP_URL: the outbox folder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      now: `${TODAY}T09:00:00Z`,
      env: { PUBLIC_URL: 'https://bank.example.org/', BANK_PHONE: '+44 20 7946 0018', BANK_EMAIL: 'donors@bank.example.org' },
    });
  });
  afterAll(() => t.close());

  it('lists the message in the app and writes it as an .eml file only the server can read, with the bank\'s contact details', async () => {
    const donor = await createDonor(t, { first_name: 'Asha', email: 'asha@example.org' });
    await book(t, donor, addDays(TODAY, 2));
    const list = await listOf(t, donor);
    expect(list.unread).toBe(1);
    expect(list.items[0]).toMatchObject({ kind: 'booking_confirmed', title: 'Your donation is booked', read: false });
    expect(list.items[0]!.body).toBe('Thank you! Your donation is booked for 12 Mar. You can move or cancel it from your dashboard.');

    expect(await t.app.runJobs()).toEqual({ sent: 1, failed: 0 });
    const [mail, ...others] = readOutbox(outboxDirectory(t.config.dataDir));
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ to: ['asha@example.org'], subject: 'Your donation is booked', mode: 0o600 });
    expect(mail!.text).toContain('Hello Asha,');
    // Through the donor's login page, which opens the dashboard at once for a signed-in donor.
    expect(mail!.text).toContain('Open the blood bank: https://bank.example.org/donor/donorlogin?next=%2Fdonor%2Fdonor-dashboard');
    expect(mail!.text).toContain('Questions? Call the blood bank on +44 20 7946 0018 or write to donors@bank.example.org.');
    expect(mail!.html).toContain('<a href="tel:+442079460018">+44 20 7946 0018</a>');
    // Laid out for the phone's width, not a 980 px desktop page shrunk to fit.
    expect(mail!.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail!.html).toContain('<title>Your donation is booked</title>');
    expect(await countPendingJobs(t.db)).toBe(0);
  });

  it('marks read what is asked, only the caller\'s own; all at once', async () => {
    const donor = await createDonor(t);
    const stranger = await createDonor(t);
    await book(t, donor, addDays(TODAY, 3));
    await book(t, stranger, addDays(TODAY, 3));
    const mine = (await listOf(t, donor)).items[0]!.id;
    const theirs = (await listOf(t, stranger)).items[0]!.id;

    expect((await post(t, '/api/notifications/read', donor, { ids: [theirs] })).statusCode).toBe(204);
    expect((await listOf(t, stranger)).unread).toBe(1);
    expect((await post(t, '/api/notifications/read', donor, { ids: [mine] })).statusCode).toBe(204);
    expect(await listOf(t, donor)).toMatchObject({ unread: 0, items: [{ id: mine, read: true }] });
    expect((await post(t, '/api/notifications/read', stranger, { all: true })).statusCode).toBe(204);
    expect((await listOf(t, stranger)).unread).toBe(0);
    const emptyList = await post(t, '/api/notifications/read', donor, { ids: [] });
    expect(emptyList.statusCode).toBe(422);
    expect(emptyList.json().errors).toEqual({ ids: 'Choose at least one notification' });
    // Neither shape: the answer says what is expected, not "Invalid input".
    for (const body of [{}, { ids: ['13745'] }, { ids: Array.from({ length: 201 }, (_, index) => index + 1) }]) {
      const refused = await post(t, '/api/notifications/read', donor, body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toBe('Send ids (1 to 200 notification ids, as numbers) or all: true');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('lists 50 at a time: `more` says older ones exist, and ?before= lists them, the caller\'s own only', async () => {
    const donor = await createDonor(t);
    const stranger = await createDonor(t);
    const at = `${TODAY}T08:00:00.000Z`;
    // The stranger's notifications come before and among the donor's: older than any \`before\`.
    const row = (userId: number, title: string) => ({ user_id: userId, kind: 'callout', title, body: 'Body', created_at: at });
    const rows = Array.from({ length: 53 }, (_, index) => row(donor.id, `Message ${index + 1}`));
    await t.db.insertInto('notifications').values(row(stranger.id, 'Not yours')).execute();
    await t.db.insertInto('notifications').values([...rows.slice(0, 2), row(stranger.id, 'Not yours either'), ...rows.slice(2)]).execute();

    const latest = await listOf(t, donor);
    expect(latest.items).toHaveLength(50);
    expect(latest).toMatchObject({ unread: 53, more: true });
    expect(latest.items[0]!.title).toBe('Message 53');
    const olderResponse = await get(t, `/api/notifications?before=${latest.items.at(-1)!.id}`, donor);
    expect(olderResponse.statusCode, olderResponse.body).toBe(200);
    const older = olderResponse.json<NotificationList>();
    expect(older.items.map((item) => item.title)).toEqual(['Message 3', 'Message 2', 'Message 1']);
    expect(older).toMatchObject({ unread: 53, more: false });
    expect((await get(t, '/api/notifications?before=0', donor)).statusCode).toBe(422);
    expect((await get(t, '/api/notifications?before=abc', donor)).statusCode).toBe(422);
  });

  it('sends no e-mail to a donor who turned e-mails off, and still lists the message', async () => {
    const donor = await createDonor(t);
    expect((await get(t, '/api/users/me/preferences', donor)).json()).toEqual({ email_notifications: true, callouts: true });
    const changed = await t.app.inject({ method: 'PATCH', url: '/api/users/me/preferences', headers: donor.headers, payload: { email_notifications: false } });
    expect(changed.json()).toEqual({ email_notifications: false, callouts: true });
    const queued = await countPendingJobs(t.db);
    await book(t, donor, addDays(TODAY, 4));
    expect(await countPendingJobs(t.db)).toBe(queued);
    expect((await listOf(t, donor)).items).toHaveLength(1);
  });
});

describe('over SMTP (SMTP_URL): each kind of message reaches the right person', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let admin: TestUser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ now: `${TODAY}T09:00:00Z`, env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Blood Bank <bank@example.org>' } });
    admin = await staffOf(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    setToday(t, TODAY);
  });
  const delivered = async (): Promise<ReceivedMail[]> => {
    await t.app.runJobs();
    return smtp.received.splice(0);
  };

  it('booking confirmed, collection recorded, released: to the donor, with their words', async () => {
    const donor = await createDonor(t, { email: 'ravi@example.org', bloodgroup: 'B+' });
    const id = await book(t, donor, TODAY);
    let mail = await delivered();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([[['ravi@example.org'], 'Your donation is booked']]);
    expect(mail[0]!.raw).toMatch(/^From: Blood Bank <bank@example\.org>/m);
    // Answers reach the bank's people, not the sender no one reads; no out-of-office replies come back.
    expect(mail[0]!.raw).toMatch(new RegExp(`^Reply-To: ${t.config.contact.email.replace(/\./g, '\\.')}\r?$`, 'm'));
    expect(mail[0]!.raw).toMatch(/^Auto-Submitted: auto-generated\r?$/m);

    expect((await collect(t, id)).statusCode).toBe(200);
    mail = await delivered();
    expect(mail.map((m) => m.subject)).toEqual(['Thank you for donating']);
    // The points the game credited: 100 for the donation and 100 for the First Time Hero it earned.
    expect(mail[0]!.text).toContain('Your donation of 10 Mar was collected and you earned 200 points and the achievement First Time Hero.');
    expect((await get(t, '/api/game/state', donor)).json().profile.points).toBe(200);

    expect((await recordResults(t, id, { ...NEGATIVE_RESULTS, bloodgroup: 'B+' })).statusCode).toBe(200);
    mail = await delivered();
    expect(mail.map((m) => m.subject)).toEqual(['Your blood is ready to save lives']);
  });

  it('a donation collected the day after its booking is named by the day the blood was given, which its next date counts from', async () => {
    const donor = await createDonor(t, { email: 'came-late@example.org', bloodgroup: 'B+' });
    const id = await book(t, donor, TODAY);
    await delivered();
    setToday(t, addDays(TODAY, 1));
    expect((await collect(t, id)).statusCode).toBe(200);
    let mail = await delivered();
    expect(mail[0]!.text).toContain('Your donation of 11 Mar was collected');
    expect((await get(t, '/api/donor/summary', donor)).json().next_eligible_date).toBe(addDays(TODAY, 1 + 90));
    const feed = (await get(t, '/api/donor/summary', donor)).json().activities as { message: string }[];
    expect(feed.map((entry) => entry.message).join('\n')).toContain('11 Mar');

    expect((await recordResults(t, id, { ...NEGATIVE_RESULTS, bloodgroup: 'B+' })).statusCode).toBe(200);
    mail = await delivered();
    expect(mail[0]!.text).toContain('Your donation of 11 Mar passed its tests');
  });

  it('gives up at once on an address the mail server refuses for good, and keeps trying one it refuses for now or will not relay', async () => {
    const nobody = await createDonor(t, { email: 'no-such-mailbox@example.org' });
    smtp.unknownMailbox('no-such-mailbox@example.org');
    await book(t, nobody, addDays(TODAY, 5));
    expect(await delivered()).toEqual([]);
    const [given] = await t.db.selectFrom('jobs').select(['attempts', 'failed_at', 'done_at']).orderBy('id', 'desc').limit(1).execute();
    // One attempt: a mailbox that does not exist was retried for hours before.
    expect(given).toMatchObject({ attempts: 1, done_at: null });
    expect(given!.failed_at).not.toBeNull();

    // A mail server refusing for now (4xx), and one refusing to relay (5.7.1, what a wrong SMTP_URL
    // gets for every message): tried again after the backoff, for the operator to fix.
    const expectRetried = async (address: string) => {
      await book(t, await createDonor(t, { email: address }), addDays(TODAY, 5));
      expect(await delivered()).toEqual([]);
      const [retried] = await t.db.selectFrom('jobs').select(['id', 'attempts', 'failed_at']).orderBy('id', 'desc').limit(1).execute();
      expect(retried, address).toMatchObject({ attempts: 1, failed_at: null });
      // Not left to arrive in a later test that moves the clock past its backoff.
      await t.db.deleteFrom('jobs').where('id', '=', retried!.id).execute();
    };
    smtp.refuse(true);
    try {
      await expectRetried('busy-server@example.org');
    } finally {
      smtp.refuse(false);
    }
    smtp.relayDenied('not-relayed@example.org');
    await expectRetried('not-relayed@example.org');
  });

  it('a booking staff turn down: the donor is told, with the reason as a sentence of its own, and that they need not come', async () => {
    const donor = await createDonor(t, { email: 'turned-down@example.org' });
    const id = await book(t, donor, addDays(TODAY, 2));
    await delivered();
    expect((await post(t, `/api/admin/donations/${id}/reject`, admin, { reason: 'The clinic is short of staff that day' })).statusCode).toBe(200);
    const mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject])).toEqual([['turned-down@example.org', 'Your booking was not accepted']]);
    expect(mail[0]!.text).toContain(
      'Your booking for 12 Mar was not accepted by the blood bank. Reason: The clinic is short of staff that day. You do not need to come. You can book another time from your dashboard.',
    );
    expect((await listOf(t, donor)).items[0]!.title).toBe('Your booking was not accepted');
  });

  it('a booking the donor cancels: said back to them, so the last message no longer reads "booked"', async () => {
    const donor = await createDonor(t, { email: 'changed-plans@example.org' });
    const id = await book(t, donor, addDays(TODAY, 3));
    await delivered();
    expect((await post(t, `/api/donations/${id}/cancel`, donor)).statusCode).toBe(200);
    const mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject])).toEqual([['changed-plans@example.org', 'Your booking is cancelled']]);
    expect(mail[0]!.text).toContain(
      'As you asked, your booking for 13 Mar is cancelled. Thank you for letting us know. You can book another time whenever you are ready.',
    );
    expect((await listOf(t, donor)).items.map((item) => item.title)).toEqual(['Your booking is cancelled', 'Your donation is booked']);
  });

  it('mails one address at most 20 times an hour: a stranger booking and cancelling in a loop cannot flood it', async () => {
    // Registered with someone else's address: each pair would mail them "booked" and "cancelled".
    const stranger = await createDonor(t, { email: 'Victim@Example.org' });
    for (let pair = 0; pair < 15; pair += 1) {
      const id = await book(t, stranger, addDays(TODAY, 4));
      expect((await post(t, `/api/donations/${id}/cancel`, stranger)).statusCode).toBe(200);
    }
    const neighbour = await createDonor(t, { email: 'neighbour@example.org' });
    await book(t, neighbour, addDays(TODAY, 4));
    const mail = await delivered();
    expect(mail.filter((m) => m.to[0]!.toLowerCase() === 'victim@example.org')).toHaveLength(EMAILS_PER_ADDRESS.points);
    expect(mail.filter((m) => m.to[0] === 'neighbour@example.org').map((m) => m.subject)).toEqual(['Your donation is booked']);
    // Every message is still in the app.
    expect((await listOf(t, stranger)).items).toHaveLength(30);

    // What staff cause is mailed whatever the budget: one more booking is not, staff turning it down is.
    const last = await book(t, stranger, addDays(TODAY, 4));
    expect((await post(t, `/api/admin/donations/${last}/reject`, admin, { reason: 'Duplicate booking' })).statusCode).toBe(200);
    expect((await delivered()).map((m) => [m.to[0]!.toLowerCase(), m.subject])).toEqual([['victim@example.org', 'Your booking was not accepted']]);

    // A password reset link still goes out: spending the address's budget must not lock its owner out.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { username: stranger.username }, remoteAddress: '10.77.0.1' })).statusCode).toBe(202);
    // The link is issued after the answer (the same answer for every account): waited for.
    const resets: ReceivedMail[] = [];
    await vi.waitFor(async () => {
      resets.push(...(await delivered()));
      expect(resets.map((m) => [m.to[0]!.toLowerCase(), m.subject])).toEqual([['victim@example.org', 'Reset your password']]);
    }, { timeout: 10_000 });

    // Nor the warning that the account's address was changed: it goes to the old address, budget spent or not.
    const moved = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: stranger.headers, payload: { email: 'elsewhere@example.org', current_password: TEST_PASSWORD } });
    expect(moved.statusCode).toBe(200);
    expect((await delivered()).map((m) => [m.to[0]!.toLowerCase(), m.subject])).toEqual([['victim@example.org', 'Your e-mail address was changed']]);
  });

  it("counts the address-change warnings of a later account on the address: a stranger flipping theirs cannot flood the owner's inbox, nor silence the owner's own", async () => {
    const owner = await createDonor(t, { email: 'flip@example.org' });
    const stranger = await createDonor(t, { email: 'flip@example.org' });
    const changeTo = async (user: TestUser, email: string) =>
      expect((await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: user.headers, payload: { email, current_password: TEST_PASSWORD } })).statusCode).toBe(200);
    for (let flip = 0; flip < EMAILS_PER_ADDRESS.points + 5; flip += 1) {
      await changeTo(stranger, 'away@example.net');
      await changeTo(stranger, 'flip@example.org');
    }
    const toOwner = () => delivered().then((mail) => mail.filter((m) => m.to[0] === 'flip@example.org').map((m) => m.subject));
    expect(await toOwner()).toEqual(Array.from({ length: EMAILS_PER_ADDRESS.points }, () => 'Your e-mail address was changed'));
    // The owner's account held the address first: its warning goes, budget spent or not.
    await changeTo(owner, 'owner-new@example.org');
    expect(await toOwner()).toEqual(['Your e-mail address was changed']);
  });

  it("a stranger who holds someone's address first cannot flood it by flipping their own password or address: only each one's first notice of the hour is outside the budget", async () => {
    const stranger = await createDonor(t, { email: 'first-holder@example.org' });
    const toAddress = () => delivered().then((mail) => mail.filter((m) => m.to[0] === 'first-holder@example.org').map((m) => m.subject));
    let password = TEST_PASSWORD;
    let headers = stranger.headers;
    for (let flip = 0; flip < EMAILS_PER_ADDRESS.points + 5; flip += 1) {
      const next = flip % 2 === 0 ? 'flipped-pass-1' : TEST_PASSWORD;
      const changed = await t.app.inject({ method: 'POST', url: '/api/users/me/password', headers, payload: { current_password: password, new_password: next } });
      expect(changed.statusCode).toBe(200);
      headers = { authorization: `Bearer ${changed.json<{ access_token: string }>().access_token}` };
      password = next;
    }
    const notices = await toAddress();
    expect(notices.length).toBeLessThanOrEqual(EMAILS_PER_ADDRESS.points + 1);
    expect(notices.every((subject) => subject === 'Your password was changed')).toBe(true);

    // The address's hour is spent: moving the address away warns it once (the account's first
    // warning of the hour), and flipping it back and forth warns it no more.
    for (let flip = 0; flip < 5; flip += 1) {
      expect((await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers, payload: { email: 'away@example.net', current_password: password } })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers, payload: { email: 'first-holder@example.org', current_password: password } })).statusCode).toBe(200);
    }
    expect(await toAddress()).toEqual(['Your e-mail address was changed']);
  });

  it('a blood group the laboratory corrects: the donor is told the old and the new group', async () => {
    const donor = await createDonor(t, { email: 'regrouped@example.org', bloodgroup: 'B+' });
    const id = await book(t, donor, TODAY);
    await collect(t, id);
    await delivered();
    expect((await recordResults(t, id, { ...NEGATIVE_RESULTS, bloodgroup: 'B-' })).statusCode).toBe(200);
    const mail = await delivered();
    expect(mail.map((m) => m.subject).sort()).toEqual(['Your blood group is B-', 'Your blood is ready to save lives']);
    expect(mail.find((m) => m.subject === 'Your blood group is B-')!.text).toContain(
      'The laboratory confirmed your blood group as B-, where your record said B+. Your record now says B-; please give B- as your blood group from now on.',
    );
  });

  it('sent again after an instance stopped before marking it done: the same Message-ID, at the domain of MAIL_FROM', async () => {
    const donor = await createDonor(t, { email: 'twice@example.org' });
    await book(t, donor, addDays(TODAY, 4));
    const job = await t.db.selectFrom('jobs').select(['id', 'payload']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const [first] = await delivered();
    const messageIdOf = (mail: ReceivedMail | undefined) => /^Message-ID: (.*)$/im.exec(mail?.raw ?? '')?.[1]?.trim();
    expect(messageIdOf(first)).toMatch(/^<job-\d+\.\d+@example\.org>$/);
    // The instance stopped after the mail server accepted the message and before it marked the job
    // done (so before it forgot the message): once the claim runs out, the job is due again.
    await t.db.updateTable('jobs').set({ done_at: null, locked_until: null, payload: job.payload }).where('id', '=', job.id).execute();
    const [again, ...more] = await delivered();
    expect(more).toEqual([]);
    expect(again!.to).toEqual(['twice@example.org']);
    expect(messageIdOf(again)).toBe(messageIdOf(first));
    // Another message has an id of its own.
    await book(t, await createDonor(t), addDays(TODAY, 4));
    const [other] = await delivered();
    expect(messageIdOf(other)).toMatch(/^<job-\d+\.\d+@example\.org>$/);
    expect(messageIdOf(other)).not.toBe(messageIdOf(first));
  });
  it('a reactive result: only the follow-up text, never the result or the deferral', async () => {
    const donor = await createDonor(t, { email: 'follow@example.org' });
    const id = await book(t, donor, TODAY);
    await collect(t, id);
    await delivered();
    await recordResults(t, id, { ...NEGATIVE_RESULTS, hiv: 'reactive', bloodgroup: 'O+' });
    const mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject])).toEqual([['follow@example.org', 'Please contact the blood bank']]);
    expect(mail[0]!.text).toContain('Your donation needs follow-up. Please contact the blood bank.');
    expect(mail[0]!.raw).not.toMatch(/HIV|reactive/i);
  });

  it('a reactive result that cancels the next booking: the donor is told the booking is cancelled, still without the result', async () => {
    const donor = await createDonor(t, { email: 'next-booking@example.org' });
    const id = await book(t, donor, TODAY);
    await collect(t, id);
    // Booked again for the first day the interval allows, before the results come.
    const next = addDays(TODAY, 90);
    await book(t, donor, next);
    await delivered();
    await recordResults(t, id, { ...NEGATIVE_RESULTS, syphilis: 'reactive', bloodgroup: 'O+' });
    const mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject])).toEqual([
      ['next-booking@example.org', 'Please contact the blood bank'],
      ['next-booking@example.org', 'Your booking is cancelled'],
    ]);
    expect(mail[1]!.text).toContain(`Your booking for ${formatFeedDate(next)} is cancelled. Please contact the blood bank.`);
    for (const message of mail) expect(message.raw).not.toMatch(/syphilis|reactive|deferred/i);
  });

  it('a deferral set and lifted by hand: the two messages arrive in that order, even when the first is slow to be accepted', async () => {
    // Sent side by side, the second message would be accepted first.
    smtp.slowFor('You are deferred from donating', 300);
    const donor = await createDonor(t, { email: 'defer@example.org' });
    const set = await post(t, `/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 30), reason: 'Recent tattoo' });
    expect(set.statusCode).toBe(201);
    await post(t, `/api/admin/deferrals/${set.json().id}/lift`, admin, { reason: 'Cleared' });
    const mail = await delivered();
    expect(mail.map((m) => m.subject)).toEqual(['You are deferred from donating', 'You can book a donation again']);
    // As every date on the donor's screens reads ("until 9 Apr 2026"), and what they can do.
    expect(mail[0]!.text).toContain(
      `You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 30))}. You can book a donation for that day or later.`,
    );
    // The reason is the staff's, and may be medical: never in the message.
    expect(mail[0]!.raw).not.toContain('tattoo');
  });

  it('a deferral that ends before the donation interval does: both messages name the day the donor can book', async () => {
    // Gave blood 20 days ago: the interval allows a booking from 70 days on, after the deferral's end.
    const donor = await createDonor(t, { email: 'rested-later@example.org' });
    await insertDonationRow(t, donor.id, { date: addDays(TODAY, -20) });
    const set = await post(t, `/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until: addDays(TODAY, 10), reason: 'Antibiotics' });
    expect(set.statusCode).toBe(201);
    await post(t, `/api/admin/deferrals/${set.json().id}/lift`, admin, { reason: 'Course finished' });
    const mail = await delivered();
    const bookFrom = `You can book a donation from ${formatFeedDateWithYear(addDays(TODAY, 70))}, 90 days after your last donation.`;
    expect(mail.map((m) => m.subject)).toEqual(['You are deferred from donating', 'Your deferral was lifted']);
    expect(mail[0]!.text).toContain(`You are deferred from donating until ${formatFeedDateWithYear(addDays(TODAY, 10))}. ${bookFrom}`);
    expect(mail[1]!.text).toContain(`Your deferral was lifted. ${bookFrom}`);
    // What the server says when they try sooner.
    const refused = await post(t, '/api/donations', donor, donationForm(addDays(TODAY, 11)));
    expect(refused.json().detail).toBe(`You can donate again from ${addDays(TODAY, 70)}.`);
  });

  it('a request approved (to the patient) and its units issued (to their donors); a request rejected with its reason', async () => {
    const patient = await createPatient(t, { email: 'patient@example.org' });
    const donor = await createDonor(t, { email: 'journey@example.org', bloodgroup: 'AB-' });
    const donationId = await insertDonationRow(t, donor.id, { date: '2026-03-01', bloodgroup: 'AB-' });
    await insertUnits(t, { bloodgroup: 'AB-', expires_on: '2026-04-10', donation_id: donationId });
    const request = await insertRequest(t, patient.id, { bloodgroup: 'AB-', units: 1 });
    expect((await post(t, `/api/admin/requests/${request.id}/approve`, admin, {})).statusCode).toBe(200);
    let mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject]).sort()).toEqual([
      ['journey@example.org', 'Your blood went to a patient'],
      ['patient@example.org', 'Your blood request was approved'],
    ]);
    // The donation's year is said (plasma keeps for a year: "1 Mar" alone could be a day to come); the patient hears which component.
    expect(mail.find((m) => m.to[0] === 'journey@example.org')!.text).toContain('Your donation of 1 Mar 2026 gave red cells to a patient. Thank you for saving a life.');
    expect(mail.find((m) => m.to[0] === 'patient@example.org')!.text).toContain('Your request for 1 unit of AB- red cells needed by');

    const other = await insertRequest(t, patient.id, { bloodgroup: 'AB-', units: 1 });
    await post(t, `/api/admin/requests/${other.id}/reject`, admin, { reason: 'Duplicate request' });
    mail = await delivered();
    expect(mail.map((m) => m.subject)).toEqual(['Your blood request was not approved']);
    expect(mail[0]!.text).toContain('Reason: Duplicate request');
  });

  it("a booking made, or moved, to tomorrow after the day's first run is reminded at the next turn, once", async () => {
    setToday(t, addDays(TODAY, 20), '00:05:00');
    await t.app.runDailyWork();
    await delivered();
    const late = await createDonor(t, { email: 'booked-at-noon@example.org' });
    const mover = await createDonor(t, { email: 'moved-to-tomorrow@example.org' });
    setToday(t, addDays(TODAY, 20), '12:00:00');
    const tomorrow = addDays(TODAY, 21);
    await book(t, late, tomorrow);
    const moved = await book(t, mover, addDays(TODAY, 25));
    expect((await post(t, `/api/donations/${moved}/reschedule`, mover, { date: tomorrow })).statusCode).toBe(200);
    await delivered();

    setToday(t, addDays(TODAY, 20), '12:15:00');
    expect((await t.app.runDailyWork()).reminders).toBe(2);
    expect((await delivered()).map((m) => [m.to[0], m.subject]).sort()).toEqual([
      ['booked-at-noon@example.org', 'See you tomorrow'],
      ['moved-to-tomorrow@example.org', 'See you tomorrow'],
    ]);
    // The next turns, and tomorrow's first run: no second reminder.
    setToday(t, addDays(TODAY, 20), '12:30:00');
    expect((await t.app.runDailyWork()).reminders).toBe(0);
    setToday(t, tomorrow, '00:05:00');
    expect((await t.app.runDailyWork()).reminders).toBe(0);
    expect((await delivered()).filter((m) => m.subject === 'See you tomorrow')).toEqual([]);
  });

  it('the daily run: a reminder the day before, and "you can donate again" on the eligible date, once a day', async () => {
    const booked = await createDonor(t, { email: 'tomorrow@example.org' });
    await book(t, booked, addDays(TODAY, 1));
    const rested = await createDonor(t, { email: 'rested@example.org' });
    await insertDonationRow(t, rested.id, { date: addDays(TODAY, -90) });
    const notYet = await createDonor(t, { email: 'notyet@example.org' });
    await insertDonationRow(t, notYet.id, { date: addDays(TODAY, -89) });
    await delivered();

    const report = await t.app.runDailyWork();
    expect(report.reminders).toBe(1);
    expect(report.messages).toMatchObject({ eligibleAgain: 1, expiredUnits: 0 });
    const mail = await delivered();
    expect(mail.map((m) => [m.to[0], m.subject]).sort()).toEqual([
      ['rested@example.org', 'You can donate again'],
      ['tomorrow@example.org', 'See you tomorrow'],
    ]);
    // The same day again (another instance, or a restart): nothing more.
    expect(await t.app.runDailyWork()).toMatchObject({ reminders: 0, messages: null });
    expect(await delivered()).toEqual([]);
    // The next day: the donor one day behind is told; a unit that expired yesterday is on staff's list.
    await insertUnits(t, { bloodgroup: 'A+', count: 2, expires_on: TODAY });
    setToday(t, addDays(TODAY, 1));
    expect((await t.app.runDailyWork()).messages).toMatchObject({ expiredUnits: 2 });
    expect((await delivered()).map((m) => m.to[0])).toContain('notyet@example.org');
    const staffNotice = await t.db.selectFrom('notifications').select(['title', 'body']).where('user_id', '=', admin.id).where('kind', '=', 'units_expired').execute();
    expect(staffNotice).toEqual([
      { title: '2 expired units to discard', body: '2 units have passed their expiry date and are ready to discard in Manage Blood ("Discard expired units").' },
    ]);

    // The day after, still not discarded and one more expired: today's notice replaces yesterday's,
    // so staff's bell counts one, not one a day.
    await insertUnits(t, { bloodgroup: 'B+', count: 1, expires_on: addDays(TODAY, 1) });
    setToday(t, addDays(TODAY, 2));
    expect((await t.app.runDailyWork()).messages).toMatchObject({ expiredUnits: 3 });
    const unreadNotices = () =>
      t.db.selectFrom('notifications').select('title').where('user_id', '=', admin.id).where('kind', '=', 'units_expired').where('read_at', 'is', null).execute();
    expect(await unreadNotices()).toEqual([{ title: '3 expired units to discard' }]);
    // Discarded: the notice is done.
    const discarded = await post(t, '/api/admin/units/discard', admin, { expired: true });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(await unreadNotices()).toEqual([]);

    // Discarded bag by bag instead: done once the last expired one is gone, not before.
    const [first, second] = await insertUnits(t, { bloodgroup: 'O-', count: 2, expires_on: addDays(TODAY, 2) });
    setToday(t, addDays(TODAY, 3));
    await t.app.runDailyWork();
    expect(await unreadNotices()).toEqual([{ title: '2 expired units to discard' }]);
    expect((await post(t, '/api/admin/units/discard', admin, { unit_ids: [first] })).statusCode).toBe(200);
    expect(await unreadNotices()).toHaveLength(1);
    expect((await post(t, '/api/admin/units/discard', admin, { unit_ids: [second] })).statusCode).toBe(200);
    expect(await unreadNotices()).toEqual([]);
  });

  it('the daily run: "you can donate again" on the day a deferral ends, unless the interval or another deferral still stands', async () => {
    setToday(t, '2026-05-01');
    const deferUntil = async (donor: TestUser, until: string) => {
      const set = await post(t, `/api/admin/donors/${donor.id}/deferrals`, admin, { type: 'temporary', until, reason: 'Low haemoglobin' });
      expect(set.statusCode, set.body).toBe(201);
    };
    // Failed screening on their first visit: no donation collected, a deferral to 3 May.
    const firstTimer = await createDonor(t, { email: 'first-timer@example.org' });
    await deferUntil(firstTimer, '2026-05-03');
    // Gave blood long ago: the deferral's end is the day that counts.
    const regular = await createDonor(t, { email: 'regular@example.org' });
    await insertDonationRow(t, regular.id, { date: '2026-01-02' });
    await deferUntil(regular, '2026-05-03');
    // Gave blood 40 days before: the interval still stands on 3 May.
    const recent = await createDonor(t, { email: 'recent@example.org' });
    await insertDonationRow(t, recent.id, { date: '2026-03-24' });
    await deferUntil(recent, '2026-05-03');
    // Two deferrals: the other lasts longer.
    const twice = await createDonor(t, { email: 'twice-deferred@example.org' });
    await deferUntil(twice, '2026-05-03');
    await deferUntil(twice, '2026-06-01');
    setToday(t, '2026-05-02');
    await t.app.runDailyWork();
    await delivered();

    setToday(t, '2026-05-03');
    expect((await t.app.runDailyWork()).messages).toMatchObject({ eligibleAgain: 2 });
    const told = (await delivered()).filter((m) => m.subject === 'You can donate again').map((m) => m.to[0]);
    expect(told.sort()).toEqual(['first-timer@example.org', 'regular@example.org']);
    expect((await listOf(t, firstTimer)).items[0]!.title).toBe('You can donate again');
    // The next run, weeks later, catches up: the recent donor's interval ended on 22 Jun, the other
    // deferral on 1 Jun; those told on 3 May are not told again.
    setToday(t, '2026-06-22');
    await t.app.runDailyWork();
    const toldLater = (await delivered()).filter((m) => m.subject === 'You can donate again').map((m) => m.to[0]);
    expect(toldLater).toEqual(expect.arrayContaining(['recent@example.org', 'twice-deferred@example.org']));
    expect(toldLater).not.toContain('first-timer@example.org');
    expect(toldLater).not.toContain('regular@example.org');
    expect(new Set(toldLater).size).toBe(toldLater.length);
  });
});

describe('a mail server that refuses or is down', () => {
  it('never fails or holds the request; the message is retried with backoff and delivered once, when the server is back', async () => {
    const port = await freePort();
    const t = await createTestApp({ now: `${TODAY}T09:00:00Z`, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
    try {
      const donor = await createDonor(t, { email: 'patient-donor@example.org' });
      // Nothing listens on the port: the booking does not notice.
      await book(t, donor, addDays(TODAY, 1));
      expect(await t.app.runJobs()).toEqual({ sent: 0, failed: 1 });
      const job = await t.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
      expect(job).toMatchObject({ attempts: 1, done_at: null, failed_at: null, run_after: `${TODAY}T09:00:30.000Z` });
      expect(job.last_error).not.toContain('patient-donor@example.org');
      // Not due again before its backoff.
      expect(await t.app.runJobs()).toEqual({ sent: 0, failed: 0 });

      // The server comes up but refuses for a while (451): another failed attempt, a longer wait.
      smtp = await startSmtpServer(port);
      smtp.refuse(true);
      setToday(t, TODAY, '09:00:31');
      expect(await t.app.runJobs()).toEqual({ sent: 0, failed: 1 });
      expect(smtp.received).toEqual([]);
      smtp.refuse(false);
      setToday(t, TODAY, '09:01:32');
      expect(await t.app.runJobs()).toEqual({ sent: 1, failed: 0 });
      expect(smtp.received.map((m) => m.subject)).toEqual(['Your donation is booked']);
      setToday(t, TODAY, '10:00:00');
      expect(await t.app.runJobs()).toEqual({ sent: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
    } finally {
      // The server's mail thread first: it keeps its SMTP connection open, which the mail server would wait for.
      await t.close();
      await smtp?.close();
    }
  });
});

describe('the outbox folder', () => {
  it('is the server\'s own: created 700 inside DATA_DIR', async () => {
    const t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    try {
      const donor = await createDonor(t);
      await book(t, donor, addDays(TODAY, 1));
      await t.app.runJobs();
      const { statSync } = await import('node:fs');
      expect(statSync(outboxDirectory(t.config.dataDir)).mode & 0o777).toBe(0o700);
      expect(path.dirname(outboxDirectory(t.config.dataDir))).toBe(t.config.dataDir);
    } finally {
      await t.close();
    }
  });

  it('holds the messages of a batch whose one job is not a message: that job fails alone', async () => {
    const t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    try {
      const at = `${TODAY}T09:00:00.000Z`;
      await t.db.insertInto('jobs').values({ kind: 'email', payload: 'not json', run_after: at, created_at: at }).execute();
      const donor = await createDonor(t, { email: 'kept@example.org' });
      await book(t, donor, addDays(TODAY, 1));
      expect(await t.app.runJobs()).toEqual({ sent: 1, failed: 1 });
      expect(readOutbox(outboxDirectory(t.config.dataDir)).map((mail) => mail.to)).toEqual([['kept@example.org']]);
    } finally {
      await t.close();
    }
  });

  it('is made again if someone removes it while the server runs: the next message still arrives', async () => {
    const t = await createTestApp({ now: `${TODAY}T09:00:00Z` });
    try {
      const outbox = outboxDirectory(t.config.dataDir);
      const donor = await createDonor(t, { email: 'first@example.org' });
      await book(t, donor, addDays(TODAY, 1));
      expect(await t.app.runJobs()).toEqual({ sent: 1, failed: 0 });
      const { rmSync } = await import('node:fs');
      rmSync(outbox, { recursive: true });

      const next = await createDonor(t, { email: 'second@example.org' });
      await book(t, next, addDays(TODAY, 1));
      expect(await t.app.runJobs()).toEqual({ sent: 1, failed: 0 });
      expect(readOutbox(outbox).map((mail) => mail.to)).toEqual([['second@example.org']]);
    } finally {
      await t.close();
    }
  });
});
