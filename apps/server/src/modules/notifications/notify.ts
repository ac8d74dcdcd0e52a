import type { Transaction } from 'kysely';
import type { NotificationKind } from '@bloodbank/shared/notifications';
import { telHref } from '@bloodbank/shared/contact';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import type { DB } from '../../db/types';
import { enqueueJob } from './job-queue';
import type { MailMessage } from './mailer';
import { findMailingFacts, insertNotification, type MailingFacts } from './notifications.repository';

/** What a person is told: a title, a sentence or two, and the screen of the app it is about. */
export interface Message {
  kind: NotificationKind;
  title: string;
  body: string;
  /** The app's path the e-mail links to (PUBLIC_URL + path). */
  path: string;
  /** The e-mail link's words, when it is for one thing ("Choose a new password"); else "Open the blood bank". */
  action?: string;
  /**
   * Sent because of what an account itself did (booked, moved, cancelled): counted against the
   * address's hourly e-mail budget (mail-budget.ts), since anyone who registers with an address can
   * do those in a loop. What staff or the bank's own schedule cause (a collection, a result's
   * follow-up, a site closed, a decision on a request) comes once per event and is always mailed:
   * a stranger spending the budget must not silence it (docs/decisions/0028).
   */
  selfCaused?: true;
}

/**
 * Tells a user something (PRODUCT.md 3.8), inside the transaction of the change it is about: a
 * notification in their list, and, when they have an address and want e-mails, the same message
 * queued for e-mail (sent after the commit, never by the request: job-worker.ts).
 */
export async function notify(
  ctx: AppContext,
  trx: Transaction<DB>,
  userId: number,
  message: Message,
  at: string,
  /** The user's mailing columns, when the caller has read them in this transaction already. */
  knownFacts?: MailingFacts,
): Promise<void> {
  await insertNotification(trx, { user_id: userId, kind: message.kind, title: message.title, body: message.body, created_at: at });
  const facts = knownFacts ?? (await findMailingFacts(trx, userId));
  if (!facts || facts.is_active !== 1 || !facts.email || facts.email_notifications !== 1) return;
  await queueEmail(ctx, trx, { email: facts.email, name: facts.first_name ?? facts.username }, message, at, undefined, {
    outsideBudget: !message.selfCaused,
  });
}

/** An e-mail only (a password reset: asked for, so sent whatever the e-mail preference). */
export async function queueEmail(
  ctx: AppContext,
  trx: Transaction<DB>,
  to: { email: string; name: string },
  message: Omit<Message, 'kind'>,
  at: string,
  footer = 'You get these e-mails because you have an account at the blood bank. You can turn them off on your profile page.',
  options: { outsideBudget?: boolean } = {},
): Promise<void> {
  const email = renderEmail(ctx.config, to, message, footer);
  await enqueueJob(trx, 'email', options.outsideBudget ? { ...email, outsideBudget: true } : email, at);
  ctx.jobs.kick();
}

/** The login page of each app whose pages an e-mail links to. */
const LOGIN_PAGES: readonly (readonly [prefix: string, login: string])[] = [
  ['/donor/', '/donor/donorlogin'],
  ['/patient/', '/patient/patientlogin'],
  ['/admin', '/admin/adminlogin'],
];

/**
 * E-mail is often read where the reader is signed out, and a signed-out visitor of an app's page is
 * sent to the home page (the spec's route guard). So a link into an app opens its login page with
 * ?next=, which goes on to the page at once for a signed-in reader and after the login for the others
 * (web: features/auth/components/login-page.tsx). A public page (the password reset) is linked as is.
 */
export function emailLinkPath(path: string): string {
  const login = LOGIN_PAGES.find(([prefix]) => path.startsWith(prefix))?.[1];
  return login ? `${login}?next=${encodeURIComponent(path)}` : path;
}

function renderEmail(
  config: Pick<Config, 'publicUrl' | 'contact'>,
  to: { email: string; name: string },
  message: Omit<Message, 'kind'>,
  footer: string,
): MailMessage {
  const link = `${config.publicUrl}${emailLinkPath(message.path)}`;
  const action = message.action ?? 'Open the blood bank';
  // Every message may ask the reader to contact the bank ("Your donation needs follow-up"): how, in each one.
  const { phone, email } = config.contact;
  const contact = `Questions? Call the blood bank on ${phone} or write to ${email}.`;
  const text = [`Hello ${to.name},`, '', message.body, '', `${action}: ${link}`, '', '-- ', contact, footer, ''].join('\n');
  const html = [
    // A phone's mail app lays an HTML message out as a 980 px page unless told its width.
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(message.title)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #1a1b1e">',
    `<p>Hello ${escapeHtml(to.name)},</p>`,
    `<p>${escapeHtml(message.body)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color: #5c5f66; font-size: 12px">Questions? Call the blood bank on <a href="${escapeHtml(telHref(phone))}">${escapeHtml(phone)}</a> or write to <a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>.<br>${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: to.email, subject: message.title, text, html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
