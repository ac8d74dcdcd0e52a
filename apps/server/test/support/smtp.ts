import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/** A message as a test reads it: envelope recipients, subject, and the decoded plain-text part. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** The text/html part, decoded as the text is. */
  html: string;
  raw: string;
}

/**
 * A real SMTP server (smtp-server, by nodemailer's authors) on a loopback port, collecting what it
 * receives. `refuse` makes it answer every message with a 451 (the mail server's own trouble).
 */
export async function startSmtpServer(port = 0): Promise<{
  port: number;
  received: ReceivedMail[];
  /** How many connections clients have opened so far. */
  connections: () => number;
  refuse: (yes: boolean) => void;
  /** Refuses mail to this address for good, as a server does a mailbox that does not exist (550 5.1.1 at RCPT TO). */
  unknownMailbox: (address: string) => void;
  /** Refuses to relay to this address (554 5.7.1 at RCPT TO), as a mail server does every message of a sender it does not know. */
  relayDenied: (address: string) => void;
  /** Takes `ms` to accept each message with this subject (a busy mail server). */
  slowFor: (subject: string, ms: number) => void;
  close: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  let refusing = false;
  let connections = 0;
  const slow = new Map<string, number>();
  const unknown = new Set<string>();
  const notRelayed = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const refusal = unknown.has(address.address.toLowerCase())
        ? { code: 550, text: '5.1.1 User unknown' }
        : notRelayed.has(address.address.toLowerCase())
          ? { code: 554, text: '5.7.1 Relay access denied' }
          : null;
      if (!refusal) return callback();
      const error = new Error(refusal.text) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing) {
          const error = new Error('Mailbox unavailable, try later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = headerOf(raw, 'Subject');
        setTimeout(() => {
          received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), subject, text: partOf(raw, 'plain'), html: partOf(raw, 'html'), raw });
          callback();
        }, slow.get(subject) ?? 0);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as net.AddressInfo;
  return {
    port: address.port,
    received,
    connections: () => connections,
    refuse: (yes) => void (refusing = yes),
    unknownMailbox: (address) => void unknown.add(address.toLowerCase()),
    relayDenied: (address) => void notRelayed.add(address.toLowerCase()),
    slowFor: (subject, ms) => void slow.set(subject, ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The .eml files in an outbox folder, read as the SMTP server's messages are. */
export function readOutbox(folder: string): (ReceivedMail & { file: string; mode: number })[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const file = path.join(folder, name);
      const raw = fs.readFileSync(file, 'utf8');
      return { file, mode: fs.statSync(file).mode & 0o777, to: [headerOf(raw, 'To')], subject: headerOf(raw, 'Subject'), text: partOf(raw, 'plain'), html: partOf(raw, 'html'), raw };
    });
}

function headerOf(raw: string, name: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0] ?? '';
  // Folded header lines continue with whitespace.
  const match = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(headers);
  return (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim();
}

/** The text/plain or text/html part, quoted-printable decoded (nodemailer's choice for long ASCII lines). */
function partOf(raw: string, type: 'plain' | 'html'): string {
  // Up to the MIME boundary ("--" and its token), not the e-mail's own signature line ("-- ", "--=20" encoded).
  const part = new RegExp(`Content-Type: text/${type}[^]*?\\r?\\n\\r?\\n([^]*?)\\r?\\n--(?![ =])`, 'i').exec(raw)?.[1] ?? '';
  return part
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\r\n/g, '\n');
}
