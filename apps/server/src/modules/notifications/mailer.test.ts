import net from 'node:net';
import os from 'node:os';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { readOutbox, startSmtpServer } from '../../../test/support/smtp';
import { createMailer, jobMessageId, messageIdDomain, type Mailer, type MailMessage } from './mailer';

/**
 * The mailer on its own, against a real SMTP server (smtp-server) or the outbox folder: messages
 * are rendered and sent in the mail thread, over connections it keeps, and a mail server that
 * never answers is given up on after the transport's timeouts, not nodemailer's minutes.
 */

const message = (to: string): MailMessage => ({
  to,
  subject: 'Your donation is booked',
  text: 'Hello Ravi,\n\nYour donation is booked for 3 Dec.\n',
  html: '<p>Hello Ravi,</p><p>Your donation is booked for 3 Dec.</p>',
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function mailerFor(config: { smtpUrl?: string }, timeouts?: Parameters<typeof createMailer>[1]): Mailer {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailer-'));
  const mailer = createMailer(
    { smtpUrl: config.smtpUrl, mailFrom: 'Blood Bank <bank@example.org>', dataDir, contact: { phone: '+91 20 2612 0000', email: 'help@bank.example.org' } },
    timeouts,
  );
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => mailer.close());
  return mailer;
}

describe('over SMTP', () => {
  it('sends one message after another over one kept connection', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const mailer = mailerFor({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    for (const to of ['a@example.org', 'b@example.org', 'c@example.org']) await mailer.send(message(to));
    expect(smtp.received.map((mail) => mail.to)).toEqual([['a@example.org'], ['b@example.org'], ['c@example.org']]);
    expect(smtp.received[0]!.subject).toBe('Your donation is booked');
    expect(smtp.connections()).toBe(1);
  });

  it('gives up on a mail server that accepts the connection and never greets, after the greeting timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as net.AddressInfo;
    const mailer = mailerFor({ smtpUrl: `smtp://127.0.0.1:${port}` }, { connection: 500, greeting: 300, socket: 2_000 });
    await expect(mailer.send(message('a@example.org'))).rejects.toThrow(/greeting/i);
  });
});

describe('a password in SMTP_URL', () => {
  /** A mail server that offers no STARTTLS and takes a password in clear, and what it was sent. */
  async function plainTextMailServer() {
    const passwords: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        passwords.push(auth.password ?? '');
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { port: (server.server.address() as net.AddressInfo).port, passwords };
  }

  it('is never sent in clear: smtp:// with a password requires STARTTLS, unless the URL says requireTLS=false', async () => {
    const plain = await plainTextMailServer();
    const guarded = mailerFor({ smtpUrl: `smtp://bank:S3cret-pass@127.0.0.1:${plain.port}` });
    await expect(guarded.send(message('a@example.org'))).rejects.toThrow(/STARTTLS/i);
    expect(plain.passwords).toEqual([]);

    // Said in the URL: the operator's choice (a mail server on the same machine).
    const allowed = mailerFor({ smtpUrl: `smtp://bank:S3cret-pass@127.0.0.1:${plain.port}?requireTLS=false` });
    await allowed.send(message('a@example.org'));
    expect(plain.passwords).toEqual(['S3cret-pass']);
  });
});

describe('the outbox folder', () => {
  it('holds each message of a burst sent at once, whole, as a file of its own', async () => {
    const mailer = mailerFor({});
    const recipients = Array.from({ length: 25 }, (_, index) => `donor${index}@example.org`);
    await Promise.all(recipients.map((to) => mailer.send(message(to))));
    const outbox = readOutbox(mailer.destination);
    expect(outbox.map((mail) => mail.to[0]).sort()).toEqual([...recipients].sort());
    expect(outbox.every((mail) => mail.text.includes('Your donation is booked for 3 Dec.'))).toBe(true);
  });

  it('makes the folder again, readable by the server only, when it was removed between two messages', async () => {
    const mailer = mailerFor({});
    await mailer.send(message('first@example.org'));
    rmSync(mailer.destination, { recursive: true });
    await mailer.send(message('second@example.org'));
    expect(readOutbox(mailer.destination).map((mail) => mail.to[0])).toEqual(['second@example.org']);
    expect(statSync(mailer.destination).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(mailer.destination)) expect(statSync(path.join(mailer.destination, file)).mode & 0o777).toBe(0o600);
  });

  it('fails the message, and keeps the thread for the next, when the folder cannot be written', async () => {
    const mailer = mailerFor({});
    await mailer.send(message('first@example.org'));
    const outbox = mailer.destination;
    rmSync(outbox, { recursive: true });
    // A file where the folder should be: neither the message nor a new folder can be written.
    writeFileSync(outbox, 'not a folder');
    await expect(mailer.send(message('second@example.org'))).rejects.toThrow(/ENOTDIR|EEXIST/);
    rmSync(outbox);
    await mailer.send(message('third@example.org'));
    expect(readOutbox(outbox).map((mail) => mail.to[0])).toEqual(['third@example.org']);
  });

  it('starts a new mail thread for the next message once closed', async () => {
    const mailer = mailerFor({});
    await mailer.send(message('first@example.org'));
    await mailer.close();
    await mailer.send(message('second@example.org'));
    const outbox = readOutbox(mailer.destination);
    expect(outbox.map((mail) => mail.to[0]).sort()).toEqual(['first@example.org', 'second@example.org']);
  });
});

describe('the Message-ID of a queued message', () => {
  it('is at the domain of MAIL_FROM however the sender is written, in ASCII; at this machine without one', () => {
    expect(messageIdDomain('Blood Bank <no-reply@bloodbank.local>')).toBe('bloodbank.local');
    expect(messageIdDomain('no-reply@bank.org')).toBe('bank.org');
    expect(messageIdDomain('"Bank, Inc" <a@b.example>')).toBe('b.example');
    expect(messageIdDomain('no-reply@bank.org (Blood Bank)')).toBe('bank.org');
    expect(messageIdDomain('Blutbank <info@bänk.de>')).toBe('xn--bnk-qla.de');
    expect(messageIdDomain('Blood Bank')).toBe(os.hostname());
    expect(jobMessageId({ id: 42, created_at: '2026-03-10T09:00:00.000Z' }, 'bank.org')).toBe('<job-42.1773133200000@bank.org>');
  });
});
