import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@bloodbank/shared/constants';
import { userTypeOf, type TokenResponse } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { AppError, tooManyRequests, unauthorized } from '../../errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import { findUserForLogin, usernameKeyOf } from '../users/users.repository';

/**
 * POST /auth/token (PRODUCT.md 3.1, 3.9): a username and password for a bearer token. Failed
 * attempts are limited per username and address and per address (lib/login-throttle.ts); a
 * deactivated account cannot sign in.
 */
export async function signIn(
  ctx: AppContext,
  jwt: FastifyInstance['jwt'],
  credentials: { username: string; password: string },
  clientAddress: string,
): Promise<TokenResponse> {
  const usernameKey = usernameKeyOf(credentials.username);
  // Counted before the password is checked, so parallel guesses cannot slip past the limit.
  const attempt = await ctx.loginThrottle.begin(usernameKey, clientAddress);
  if (!attempt.allowed) {
    const waitSeconds = attempt.retryAfterSeconds;
    const minutes = Math.ceil(waitSeconds / 60);
    const error = tooManyRequests(
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
    throw new AppError(error.statusCode, error.detail, error.code, { retry_after_seconds: waitSeconds });
  }

  const user = await findUserForLogin(ctx.db, usernameKey);
  const passwordOk = user
    ? await verifyPassword(user.password_hash, credentials.password)
    : await verifyAgainstDummy(credentials.password);
  // One message whether the username or the password was wrong; the attempt stays counted.
  if (!user || !passwordOk) throw unauthorized(MESSAGES.invalidCredentials);
  await attempt.passwordAccepted();
  if (user.is_active !== 1) {
    throw unauthorized('This account has been deactivated. Please contact the blood bank.');
  }
  const accessToken = await jwt.sign(
    { sub: String(user.id), role: user.role, ver: user.token_version },
    { expiresIn: ctx.config.tokenTtl },
  );
  return { access_token: accessToken, token_type: 'bearer', user_type: userTypeOf(user.role), user_id: user.id };
}
