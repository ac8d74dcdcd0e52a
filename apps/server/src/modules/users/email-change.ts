import type { UserType } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types';
import { queueEmail } from '../notifications/notify';

/** Who changed an account's e-mail address: its owner (PATCH /users/me) or the bank's staff. */
export type EmailChangedBy = 'owner' | 'staff';

/**
 * An account's e-mail address changed, in the transaction that changed it. The address is where
 * reset links go: a link mailed to the old one no longer opens the account, and the old address is
 * told, so an owner whose address was taken over (or mistyped by staff) hears of it.
 */
export async function endOldAddress(
  ctx: AppContext,
  trx: Transaction<DB>,
  account: { id: number; username: string; first_name: string | null; userType: UserType; oldEmail: string | null; newEmail: string },
  changedBy: EmailChangedBy,
  at: string,
): Promise<void> {
  await trx.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', account.id).where('used_at', 'is', null).execute();
  if (!account.oldEmail) return;
  const by = changedBy === 'staff' ? ' by the blood bank' : '';
  const ifNotYou = changedBy === 'staff' ? 'If this is not right' : 'If you did not change it';
  await queueEmail(
    ctx,
    trx,
    { email: account.oldEmail, name: account.first_name ?? account.username },
    {
      title: 'Your e-mail address was changed',
      body: `The e-mail address of your blood bank account "${account.username}" was changed${by} to ${account.newEmail}. The bank's messages go there from now on. ${ifNotYou}, please contact the blood bank at once.`,
      path: account.userType === 'donor' ? '/donor/donor-dashboard' : '/patient/patient-dashboard',
    },
    at,
    'You get this e-mail because it was the address of your account at the blood bank.',
  );
}
