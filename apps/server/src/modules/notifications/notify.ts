import type { Transaction } from 'kysely';
import type { NotificationKind } from '@bloodbank/shared/notifications';
import type { AppContext } from '../../context';
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
  await queueEmail(ctx, trx, { email: facts.email, name: facts.first_name ?? facts.username }, message, at);
}

/** An e-mail only (a password reset: asked for, so sent whatever the e-mail preference). */
export async function queueEmail(
  ctx: AppContext,
  trx: Transaction<DB>,
  to: { email: string; name: string },
  message: Omit<Message, 'kind'>,
  at: string,
  footer = 'You get these e-mails because you have an account at the blood bank. You can turn them off on your profile page.',
): Promise<void> {
  await enqueueJob(trx, 'email', renderEmail(ctx.config.publicUrl, to, message, footer), at);
  ctx.jobs.kick();
}

function renderEmail(publicUrl: string, to: { email: string; name: string }, message: Omit<Message, 'kind'>, footer: string): MailMessage {
  const link = `${publicUrl}${message.path}`;
  const text = [`Hello ${to.name},`, '', message.body, '', `Open the blood bank: ${link}`, '', '-- ', footer, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1a1b1e">',
    `<p>Hello ${escapeHtml(to.name)},</p>`,
    `<p>${escapeHtml(message.body)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open the blood bank</a></p>`,
    `<p style="color: #5c5f66; font-size: 12px">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: to.email, subject: message.title, text, html };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
