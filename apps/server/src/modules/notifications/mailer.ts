import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import { PRIVATE_FILE_MODE } from '../../lib/private-files';

/** One e-mail, as the queue stores it: plain text, and the same as simple HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the message is accepted (by the SMTP server, or written to the outbox); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  /** Where messages go, for the log: "smtp://host:port" (never the password) or the outbox folder. */
  readonly destination: string;
  close(): void;
}

/** The folder of `.eml` files when no SMTP server is configured (PRODUCT.md 3.8). */
export const outboxDirectory = (dataDir: string) => path.join(dataDir, 'outbox');

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise each message is rendered by nodemailer's
 * stream transport and written to <DATA_DIR>/outbox/ as an .eml file readable by the server's user
 * only (PRODUCT.md 3.9), so a one-machine install shows what it would send.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  const envelope = (message: MailMessage) => ({ from: config.mailFrom, ...message });
  if (config.smtpUrl) {
    // Short timeouts: a mail server that hangs holds a queue slot, never a request (sending is after commit).
    const transport = nodemailer.createTransport(config.smtpUrl, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as Parameters<typeof nodemailer.createTransport>[1]);
    const url = new URL(config.smtpUrl);
    return {
      destination: `${url.protocol}//${url.host}`,
      send: async (message) => {
        await transport.sendMail(envelope(message));
      },
      close: () => transport.close(),
    };
  }
  const outbox = outboxDirectory(config.dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const writeMessage = (temporary: string, message: Buffer) => fs.writeFile(temporary, message, { mode: PRIVATE_FILE_MODE });
  return {
    destination: outbox,
    send: async (message) => {
      const rendered = (await transport.sendMail(envelope(message))).message as Buffer;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      // Written under a temporary name and renamed: a reader never sees half a message.
      const temporary = path.join(outbox, `.${name}.part`);
      try {
        await writeMessage(temporary, rendered);
      } catch (error) {
        // The folder is made only when it is missing (the first message, or someone removed it),
        // not before every message: a system call each, costly on a busy server.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
        await writeMessage(temporary, rendered);
      }
      await fs.rename(temporary, path.join(outbox, name));
    },
    close: () => transport.close(),
  };
}
