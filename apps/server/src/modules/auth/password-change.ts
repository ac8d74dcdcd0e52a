import type { FastifyInstance } from 'fastify';
import { PASSWORD_CHANGE_MESSAGES, type PasswordChange, type TokenResponse } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { unauthorized } from '../../errors';
import { hashPassword } from '../../lib/passwords';
import { SESSION_INVALID, type Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { queueEmail } from '../notifications/notify';
import { heldTheAddressAfterAnother } from '../users/email-change';
import { endResetLinks, lockAccount, setPassword } from '../users/users.repository';
import { confirmCurrentPassword } from './password-check';
import { signSession } from './sign-in';

/**
 * POST /users/me/password: a signed-in user chooses a new password. The current one is checked as a
 * sign-in is (counted, throttled: a stolen session cannot guess it); the change ends every session
 * of the account and every reset link still out, and answers a new session for the device that
 * made it, so its owner stays signed in here and nowhere else. The account's address is told, so an
 * owner whose password someone else changed hears of it.
 */
export async function changeOwnPassword(
  ctx: AppContext,
  jwt: FastifyInstance['jwt'],
  me: Principal,
  change: PasswordChange,
  clientAddress: string,
): Promise<TokenResponse> {
  await confirmCurrentPassword(ctx, me.username, change.current_password, clientAddress, PASSWORD_CHANGE_MESSAGES.currentNeeded);
  const passwordHash = await hashPassword(change.new_password);
  const at = ctx.clock.now().toISOString();
  const newVersion = await ctx.writes.run(async (trx) => {
    // A session ended while the password was checked (a reset, another change, a deactivation)
    // changes nothing: the reset's password is the owner's.
    const account = await lockAccount(trx, ctx.engine, me.id);
    if (!account || account.is_active !== 1 || account.token_version !== me.sessionVersion) throw unauthorized(SESSION_INVALID);
    await setPassword(trx, me.id, passwordHash, at);
    await endResetLinks(trx, me.id, at);
    await recordAudit(trx, { actorId: me.id, actor: me.username, action: 'password.changed', entity: 'user', entityId: me.id, at });
    if (account.email) {
      await queueEmail(
        ctx,
        trx,
        { email: account.email, name: account.first_name ?? account.username },
        {
          title: 'Your password was changed',
          body: `The password of your blood bank account "${account.username}" was changed, and every other device signed in to it was signed out. If you did not change it, choose a new password at once with "Forgot password?" and contact the blood bank.`,
          path: '/forgot-password',
          action: 'Forgot password?',
        },
        at,
        'You get this e-mail because the password of your account at the blood bank was changed.',
        // A security notice: the account's first of the hour is not counted in the address's budget
        // (lib/security-notices.ts), unless an older account holds the address (a stranger's copy).
        {
          outsideBudget:
            (await ctx.securityNotices.outsideBudget('password-changed', me.id)) &&
            !(await heldTheAddressAfterAnother(trx, me.id, account.email)),
        },
      );
    }
    return account.token_version + 1;
  });
  return signSession(ctx, jwt, { id: me.id, role: me.role, token_version: newVersion });
}
