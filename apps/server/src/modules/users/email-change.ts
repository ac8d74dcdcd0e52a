import type { UserType } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types';
import { queueEmail } from '../notifications/notify';
import { endResetLinks } from './users.repository';

/** Who changed an account's e-mail address: its owner (PATCH /users/me) or the bank's staff. */
export type EmailChangedBy = 'owner' | 'staff';

/**
 * An account's e-mail address changed, in the transaction that changed it. The address is where
 * reset links go: a link mailed to the old one no longer opens the account, and the old address is
 * told, so an owner whose address was taken over (or mistyped by staff) hears of it. The same
 * mailbox written in other letters' case is no new address: nothing ends and nobody is told.
 */
export async function endOldAddress(
  ctx: AppContext,
  trx: Transaction<DB>,
  account: { id: number; username: string; first_name: string | null; userType: UserType; oldEmail: string | null; newEmail: string },
  changedBy: EmailChangedBy,
  at: string,
): Promise<void> {
  if (account.newEmail.toLowerCase() === account.oldEmail?.toLowerCase()) return;
  await endResetLinks(trx, account.id, at);
  if (!account.oldEmail) return;
  const message =
    changedBy === 'owner'
      ? {
          title: 'Your e-mail address was changed',
          name: account.first_name ?? account.username,
          body: `The e-mail address of your blood bank account "${account.username}" was changed to ${account.newEmail}. The bank's messages go there from now on. If you did not change it, please contact the blood bank at once.`,
          path: account.userType === 'donor' ? '/donor/donor-dashboard' : '/patient/patient-dashboard',
        }
      : // Staff usually correct an address that was mistyped, so the old one may be a stranger's: it is
        // told that the address left an account, not whose account, where it went or what it is for.
        {
          title: 'An e-mail address was changed',
          name: 'there',
          body: 'The blood bank changed the e-mail address of an account that used this address, so its messages no longer come here. If you think this is a mistake, please contact the blood bank.',
          path: '/',
        };
  await queueEmail(
    ctx,
    trx,
    { email: account.oldEmail, name: message.name },
    { title: message.title, body: message.body, path: message.path },
    at,
    'You get this e-mail because this address was on an account at the blood bank.',
    // The warning a taken-over account must not move its mail away without: for the account that
    // held the address first (its owner's, most likely), a stranger spending the address's e-mail
    // budget (mail-budget.ts) must not silence it. Accounts made later with the address (a
    // stranger's, who knows their own password and could flip it back and forth) are counted, or
    // they flooded it: 70 warnings in a few seconds. So is every warning after an account's first
    // of the hour: the first holder can be a stranger too (lib/security-notices.ts).
    {
      outsideBudget:
        (changedBy === 'staff' || (await ctx.securityNotices.outsideBudget('address-changed', account.id))) &&
        !(await heldTheAddressAfterAnother(trx, account.id, account.oldEmail)),
    },
  );
}

/** Whether an older active account than `accountId` has the address `email`: then its e-mails about this account are counted in the address's budget. */
export async function heldTheAddressAfterAnother(trx: Transaction<DB>, accountId: number, email: string): Promise<boolean> {
  const older = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '<', accountId)
    .where('is_active', '=', 1)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .limit(1)
    .executeTakeFirst();
  return older !== undefined;
}
