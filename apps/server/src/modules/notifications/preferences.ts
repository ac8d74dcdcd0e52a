import type { Preferences } from '@bloodbank/shared/notifications';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import { findMailingFacts } from './notifications.repository';

const toPreferences = (row: { email_notifications: number; callouts: number }): Preferences => ({
  email_notifications: row.email_notifications === 1,
  callouts: row.callouts === 1,
});

export async function getPreferences(ctx: AppContext, userId: number): Promise<Preferences> {
  const row = await findMailingFacts(ctx.db, userId);
  if (!row) throw notFound('Account not found');
  return toPreferences(row);
}

/** The person's own choices (PRODUCT.md 3.8): e-mails, and call-outs for donors. */
export async function updatePreferences(ctx: AppContext, userId: number, patch: Partial<Preferences>): Promise<Preferences> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set({
        ...(patch.email_notifications === undefined ? {} : { email_notifications: patch.email_notifications ? 1 : 0 }),
        ...(patch.callouts === undefined ? {} : { callouts: patch.callouts ? 1 : 0 }),
        updated_at: at,
      })
      .where('id', '=', userId)
      .returning(['email_notifications', 'callouts'])
      .executeTakeFirst();
    if (!row) throw notFound('Account not found');
    return toPreferences(row);
  });
}
