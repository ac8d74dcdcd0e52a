import type { Selectable, Transaction } from 'kysely';
import type { DatabaseOrTransaction } from '../../db/database';
import type { DB, UsersTable } from '../../db/types';
import { insertAtCommit } from '../../db/rows-at-commit';

export async function insertNotification(
  trx: Transaction<DB>,
  notification: { user_id: number; kind: string; title: string; body: string; created_at: string },
): Promise<void> {
  await insertAtCommit(trx, 'notifications', notification);
}

/** The user's notifications, newest first: the latest, or those older than `before` (an id). */
export function listNotificationsOf(db: DatabaseOrTransaction, userId: number, limit: number, before?: number) {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'kind', 'title', 'body', 'created_at', 'read_at'])
    .where('user_id', '=', userId);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export async function countUnreadOf(db: DatabaseOrTransaction, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Marks the user's own notifications read (ids of others' are ignored); all of them without ids. */
export async function markNotificationsRead(trx: Transaction<DB>, userId: number, ids: readonly number[] | 'all', at: string): Promise<void> {
  let update = trx.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids !== 'all') update = update.where('id', 'in', [...ids]);
  await update.execute();
}

/**
 * Marks staff's unread notifications of a kind read: a notice that says how things stand (how many
 * expired units wait) is stale once a newer one says it, or once the thing is done. By the admins'
 * ids, so notifications_unread_idx seeks to their few rows, not every user's unread ones.
 */
export async function markStaffNoticesRead(trx: Transaction<DB>, kind: string, at: string): Promise<void> {
  await trx
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('role', '=', 'ADMIN'))
    .where('read_at', 'is', null)
    .where('kind', '=', kind)
    .execute();
}

/** Where to send a user's e-mails and whether they want them. */
/** What deciding and addressing an e-mail needs of its user (a caller that reads the user anyway adds these columns). */
export const MAILING_COLUMNS = ['email', 'email_notifications', 'callouts', 'first_name', 'username', 'is_active'] as const;
export type MailingFacts = Pick<Selectable<UsersTable>, (typeof MAILING_COLUMNS)[number]>;

export function findMailingFacts(db: DatabaseOrTransaction, userId: number): Promise<MailingFacts | undefined> {
  return db.selectFrom('users').select(MAILING_COLUMNS).where('id', '=', userId).executeTakeFirst();
}
