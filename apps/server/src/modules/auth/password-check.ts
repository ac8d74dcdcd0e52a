import { MY_DETAILS_MESSAGES } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { invalidFields, tooManyRequestsFor } from '../../errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import { findUserForLogin, usernameKeyOf } from '../users/users.repository';

type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserForLogin>>>;

export type PasswordCheck =
  | { outcome: 'throttled'; retryAfterSeconds: number }
  | { outcome: 'wrong' }
  | { outcome: 'accepted'; user: LoginUser };

/**
 * A username and password, checked the one way every password is (PRODUCT.md 3.9): the attempt is
 * counted before the hash is verified, so parallel guesses cannot slip past the limit; a wrong one
 * stays counted, a right one is given back. An unknown username costs a dummy hash's time, so the
 * answer's timing does not tell which usernames exist. The caller words the refusal: sign-in and a
 * password confirmation answer differently.
 */
export async function checkPassword(ctx: AppContext, username: string, password: string, clientAddress: string): Promise<PasswordCheck> {
  const usernameKey = usernameKeyOf(username);
  const attempt = await ctx.loginThrottle.begin(usernameKey, clientAddress);
  if (!attempt.allowed) return { outcome: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds };
  const user = await findUserForLogin(ctx.db, usernameKey);
  const passwordOk = user ? await verifyPassword(user.password_hash, password) : await verifyAgainstDummy(password);
  if (!user || !passwordOk) return { outcome: 'wrong' };
  await attempt.passwordAccepted();
  return { outcome: 'accepted', user };
}

/** "5 minutes", "1 minute": the wait a throttled attempt is told, rounded up. */
export function minutesToWait(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * A signed-in user's current password, asked before they change their address or their password:
 * checked as a sign-in is, so a stolen session cannot guess it. 422 on `current_password` when
 * missing or wrong, 429 past the limit.
 */
export async function confirmCurrentPassword(
  ctx: AppContext,
  username: string,
  password: string | undefined,
  clientAddress: string,
  missing: string = MY_DETAILS_MESSAGES.passwordNeeded,
): Promise<void> {
  if (!password) throw invalidFields({ current_password: missing });
  const check = await checkPassword(ctx, username, password, clientAddress);
  if (check.outcome === 'throttled') {
    throw tooManyRequestsFor(`Too many wrong passwords. Please try again in ${minutesToWait(check.retryAfterSeconds)}.`, check.retryAfterSeconds);
  }
  if (check.outcome === 'wrong') throw invalidFields({ current_password: MY_DETAILS_MESSAGES.passwordWrong });
}
