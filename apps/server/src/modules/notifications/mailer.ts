import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { Worker } from 'node:worker_threads';
import addressparser from 'nodemailer/lib/addressparser';
import type { Config } from '../../config';
import { PRIVATE_FILE_MODE } from '../../lib/private-files';

/** One e-mail, as the queue stores it: plain text, and the same as simple HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header, `<...@domain>` (jobMessageId); nodemailer makes a random one without it. */
  messageId?: string;
  /**
   * Sent even when the address has had its e-mails for the hour (mail-budget.ts): a password reset
   * link, which is limited per account and per client already, and which a stranger must not be
   * able to stop by spending the owner's budget.
   */
  outsideBudget?: boolean;
}

/**
 * The Message-ID of the e-mail a queued job sends: the same on every attempt. Delivery is at least
 * once (docs/decisions/0010): should an instance stop between the mail server's acceptance and
 * marking the job done, the message goes again, and mail programs show two copies with one
 * Message-ID as one. The job's id and the millisecond it was queued, at `domain` (messageIdDomain).
 * (It also spares nodemailer five random draws and a parse of the sender per message.)
 */
export function jobMessageId(job: { id: number; created_at: string }, domain: string): string {
  return `<job-${job.id}.${Date.parse(job.created_at)}@${domain}>`;
}

/** The domain of MAIL_FROM's address (in ASCII, as a header needs it), or this machine's name, as nodemailer would choose. */
export function messageIdDomain(mailFrom: string): string {
  const [sender] = addressparser(mailFrom, { flatten: true });
  const domain = sender?.address.split('@')[1];
  return (domain && domainToASCII(domain)) || os.hostname();
}

/**
 * What every e-mail of the bank carries besides its message: the sender; a Reply-To of the bank's
 * public address (BANK_EMAIL), so that a donor who answers reaches people, not the no-reply sender;
 * and Auto-Submitted (RFC 3834), so that mail servers send no out-of-office replies back.
 */
const BANK_MAIL_HEADERS = (config: Pick<Config, 'mailFrom' | 'contact'>) => ({
  from: config.mailFrom,
  replyTo: config.contact.email,
  headers: { 'Auto-Submitted': 'auto-generated' },
});

/**
 * An smtp:// URL with a password sends it in clear to a mail server that offers no STARTTLS: such
 * a URL requires STARTTLS (the message fails, and is retried, rather than the password going out),
 * unless it says `requireTLS=false` itself. smtps:// is encrypted from the start.
 */
export function sendsPasswordInClear(smtpUrl: string): boolean {
  const url = new URL(smtpUrl);
  return url.protocol === 'smtp:' && url.password !== '' && !url.searchParams.has('requireTLS');
}

/**
 * The mail server refused the address for good (a 5xx answer to RCPT TO that names the mailbox: no
 * such user). Sending it again cannot succeed, so the queue gives it up at once rather than for days
 * of retries. Anything else (a wrong password, a relay refused: every message) is retried, so the
 * operator can fix it.
 */
export class RecipientRefused extends Error {}

export interface Mailer {
  /** Resolves once the message is accepted (by the SMTP server, or written to the outbox); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  /** Where messages go, for the log: "smtp://host:port" (never the password) or the outbox folder. */
  readonly destination: string;
  close(): Promise<void>;
}

/** The folder of `.eml` files when no SMTP server is configured (PRODUCT.md 3.8). */
export const outboxDirectory = (dataDir: string) => path.join(dataDir, 'outbox');

/** How long the SMTP transport waits for a mail server, in ms. */
export interface SmtpTimeouts {
  connection: number;
  greeting: number;
  socket: number;
}

/** Short: a mail server that hangs holds a queue slot for this long, never a request (sending is after commit). */
const SMTP_TIMEOUTS: SmtpTimeouts = { connection: 10_000, greeting: 10_000, socket: 20_000 };
/** SMTP connections kept open and shared by the messages (nodemailer's pool). */
const SMTP_CONNECTIONS = 3;

/**
 * The mail thread's heap, in MB: a message takes a few kilobytes. With V8's defaults the thread
 * added about 60 MB to the server's memory, with these about 28 (issue 8: under 300 MB at peak).
 * The young generation is where a message's short-lived strings and streams live: at 1 MB it was
 * collected so often that rendering cost about 850 µs of CPU a message, at 4 MB about 600. The old
 * generation holds nodemailer's code and the thread's baseline: at 16 MB V8 ran a full collection
 * every few messages (about 550 µs of CPU a message); at 32 MB rendering costs about 200 to 260 µs.
 * The server's peak under the booking benchmark (258 to 316 MB) comes with the main thread's old
 * space, not this heap (docs/performance.md, 2026-11-27).
 */
const MAIL_THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 32 };
/** The mail thread ends after this long without a message; the next one starts it again (about 30 ms). */
const MAIL_THREAD_IDLE_MS = 5_000;

// CommonJS, evaluated in the mail thread: nodemailer is loaded from the path the server resolves.
const MAIL_THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const nodemailer = require(workerData.nodemailer);
const { smtp, outbox, fileMode } = workerData;
let transport;
let send;
if (smtp) {
  transport = nodemailer.createTransport(smtp);
  send = async (mail) => {
    await transport.sendMail(mail);
  };
} else {
  transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Written with blocking calls: they block this thread only, never a request, and cost a tenth of
  // the CPU of fs/promises' file handles (a few µs against about 150 a message).
  const write = (file, bytes) => fs.writeFileSync(file, bytes, { mode: fileMode });
  send = async (mail) => {
    const rendered = (await transport.sendMail(mail)).message;
    const name = new Date().toISOString().replace(/[:.]/g, '-') + '-' + crypto.randomBytes(4).toString('hex') + '.eml';
    // Written under a temporary name and renamed: a reader never sees half a message.
    const temporary = path.join(outbox, '.' + name + '.part');
    try {
      try {
        write(temporary, rendered);
      } catch (error) {
        // The folder is made only when it is missing (the first message, or someone removed it).
        if (error.code !== 'ENOENT') throw error;
        fs.mkdirSync(outbox, { recursive: true, mode: 0o700 });
        write(temporary, rendered);
      }
      fs.renameSync(temporary, path.join(outbox, name));
    } catch (error) {
      // No half-written file is left behind; the queue sends the message again.
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // The folder itself is unusable: there is nothing to remove.
      }
      throw error;
    }
  };
}
// The mail server refused the recipient's address for good: a 5xx to RCPT TO that names the
// mailbox or the address (enhanced status 5.1.x, 5.2.1; or 550, 551, 553 without one). Not a policy
// refusal (5.7.x, "relay access denied"), which a wrong SMTP_URL gives every message and which must
// be retried until the operator fixes it.
function refusedForGood(error) {
  if (!error || error.command !== 'RCPT TO' || !(error.responseCode >= 500)) return false;
  const response = String(error.response || '');
  if (/\\b5\\.7\\.\\d+/.test(response)) return false;
  return /\\b5\\.1\\.\\d+|\\b5\\.2\\.1\\b/.test(response) || [550, 551, 553].includes(error.responseCode);
}
parentPort.on('message', (request) => {
  if (request === 'close') {
    transport.close();
    parentPort.close();
    return;
  }
  send(request.mail).then(
    () => parentPort.postMessage({ id: request.id }),
    (error) =>
      parentPort.postMessage({
        id: request.id,
        error: String((error && error.message) || error),
        recipientRefused: refusedForGood(error),
      }),
  );
});
`;

/** "smtp://host:port" of an SMTP URL: never its user or password. */
function smtpOrigin(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface MailThread {
  worker: Worker;
  /** Messages posted to this thread and not answered yet, by id. */
  pending: Map<number, Pending>;
}

/**
 * nodemailer over SMTP when SMTP_URL is set (a pool of kept connections); otherwise each message
 * is rendered by nodemailer's stream transport and written to <DATA_DIR>/outbox/ as an .eml file
 * readable by the server's user only (PRODUCT.md 3.9), so a one-machine install shows what it
 * would send.
 *
 * Either way in a thread of its own, started with the first message: rendering a message costs
 * about as much CPU as the booking that queued it (0.35-0.5 ms), and a call-out queues thousands.
 * On the server's thread that work delayed every request behind it and fell behind a rush of
 * bookings (docs/performance.md, 2026-11-27 afternoon). Should the thread die, the messages it
 * held fail (the queue tries them again) and the next message starts a new one.
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'contact'>,
  timeouts: SmtpTimeouts = SMTP_TIMEOUTS,
): Mailer {
  const outbox = outboxDirectory(config.dataDir);
  const smtp = config.smtpUrl
    ? {
        url: config.smtpUrl,
        ...(sendsPasswordInClear(config.smtpUrl) ? { requireTLS: true } : {}),
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        connectionTimeout: timeouts.connection,
        greetingTimeout: timeouts.greeting,
        socketTimeout: timeouts.socket,
      }
    : undefined;
  const workerData = {
    nodemailer: createRequire(import.meta.url).resolve('nodemailer'),
    smtp,
    outbox,
    fileMode: PRIVATE_FILE_MODE,
  };

  /** The thread under way and the messages it holds (a closing thread keeps its own until it exits). */
  let thread: MailThread | undefined;
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const start = (): MailThread => {
    const worker = new Worker(MAIL_THREAD_SOURCE, { eval: true, workerData, resourceLimits: MAIL_THREAD_HEAP });
    const started: MailThread = { worker, pending: new Map() };
    const failAll = (error: Error) => {
      for (const each of started.pending.values()) each.reject(error);
      started.pending.clear();
    };
    worker.on('message', ({ id, error, recipientRefused }: { id: number; error?: string; recipientRefused?: boolean }) => {
      const waiting = started.pending.get(id);
      if (!waiting) return;
      started.pending.delete(id);
      if (error === undefined) waiting.resolve();
      else waiting.reject(recipientRefused ? new RecipientRefused(error) : new Error(error));
    });
    worker.on('error', (error) => failAll(error));
    worker.on('exit', (code) => {
      if (thread === started) thread = undefined;
      failAll(new Error(`the mail thread stopped (exit code ${code})`));
    });
    // Idle, the thread does not keep the process alive; a message under way does (see send).
    worker.unref();
    return started;
  };

  const mailer: Mailer = {
    destination: smtp ? smtpOrigin(smtp.url) : outbox,
    send(message) {
      clearTimeout(idleTimer);
      thread ??= start();
      const { worker, pending } = thread;
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, mail: { ...BANK_MAIL_HEADERS(config), ...message } });
      }).finally(() => {
        if (pending.size > 0 || thread?.worker !== worker) return;
        worker.unref();
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => void mailer.close(), MAIL_THREAD_IDLE_MS).unref();
      });
    },
    async close() {
      clearTimeout(idleTimer);
      const closing = thread;
      if (!closing) return;
      thread = undefined;
      const { worker } = closing;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
  return mailer;
}
