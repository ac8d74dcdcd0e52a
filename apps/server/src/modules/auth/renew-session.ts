import type { FastifyInstance } from 'fastify';
import { SESSION_MAX_DAYS, SESSION_MESSAGES, type TokenResponse } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { forbidden } from '../../errors';
import type { Principal } from '../../plugins/access';
import { signSession } from './sign-in';

/**
 * POST /auth/renew: a session in use gets a fresh TOKEN_TTL, so someone at work is not signed out
 * mid-task TOKEN_TTL after signing in (the app asks while its user is active: a tab left open is
 * not). The same session: its token_version, so a password change or a reset still ends it at once,
 * and its sign-in time, so no token of it lasts beyond SESSION_MAX_DAYS after its owner last gave
 * their password. (Signing out ends the session on the device only: a copied token works until it
 * ends; a password change ends every copy.)
 */
export async function renewSession(ctx: AppContext, jwt: FastifyInstance['jwt'], me: Principal, token: string): Promise<TokenResponse> {
  // Already verified by the access check: read here only for when its owner signed in.
  const claims = jwt.decode<{ auth_time?: unknown; iat?: unknown }>(token);
  const signedInAt = typeof claims?.auth_time === 'number' ? claims.auth_time : typeof claims?.iat === 'number' ? claims.iat : 0;
  const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000);
  const sessionEnds = signedInAt + SESSION_MAX_DAYS * 86_400;
  if (nowSeconds >= sessionEnds) throw forbidden(SESSION_MESSAGES.tooOldToRenew);
  // Never past the session's week: a renewal on its last day is cut to what is left of it.
  return signSession(ctx, jwt, { id: me.id, role: me.role, token_version: me.sessionVersion }, signedInAt, sessionEnds - nowSeconds);
}
