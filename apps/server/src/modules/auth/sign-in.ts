import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@bloodbank/shared/constants';
import { userTypeOf, type TokenResponse } from '@bloodbank/shared/auth';
import type { Role } from '@bloodbank/shared/roles';
import type { AppContext } from '../../context';
import { tooManyRequestsFor, unauthorized } from '../../errors';
import { checkPassword, minutesToWait } from './password-check';

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
  const check = await checkPassword(ctx, credentials.username, credentials.password, clientAddress);
  if (check.outcome === 'throttled') {
    throw tooManyRequestsFor(`Too many failed login attempts. Please try again in ${minutesToWait(check.retryAfterSeconds)}.`, check.retryAfterSeconds);
  }
  // One message whether the username or the password was wrong; the attempt stays counted.
  if (check.outcome === 'wrong') throw unauthorized(MESSAGES.invalidCredentials);
  const { user } = check;
  if (user.is_active !== 1) {
    throw unauthorized('This account has been deactivated. Please contact the blood bank.');
  }
  return signSession(ctx, jwt, user);
}

/**
 * A bearer token for the account at its current token_version (bumping the version ends it), valid
 * TOKEN_TTL. `auth_time` is when its owner last gave their password (seconds, the bank's clock): a
 * renewal keeps it, so a session renewed by use still ends SESSION_MAX_DAYS after it (renew-session.ts).
 */
export async function signSession(
  ctx: AppContext,
  jwt: FastifyInstance['jwt'],
  user: { id: number; role: Role; token_version: number },
  authTime = Math.floor(ctx.clock.now().getTime() / 1000),
  /** At most this many seconds (a renewal near the end of its session's week). */
  maxSeconds = Number.POSITIVE_INFINITY,
): Promise<TokenResponse> {
  const claims = { sub: String(user.id), role: user.role, ver: user.token_version, auth_time: authTime };
  const expiresIn = Math.max(1, Math.min(secondsOf(ctx.config.tokenTtl), maxSeconds));
  const accessToken = await jwt.sign(claims, { expiresIn });
  return { access_token: accessToken, token_type: 'bearer', user_type: userTypeOf(user.role), user_id: user.id };
}

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** "12h" -> 43200: TOKEN_TTL's form, checked at start (config.ts). */
function secondsOf(duration: string): number {
  return Number(duration.slice(0, -1)) * UNIT_SECONDS[duration.slice(-1) as keyof typeof UNIT_SECONDS];
}
