import type { TokenResponse } from '@bloodbank/shared/auth';
import { isUserType } from '@bloodbank/shared/roles';
import { ApiError, apiRequest, type ResponseCheck } from '../api-client';
import { readToken } from '../session-storage';

/** At most one look at the token per this many ms of activity. */
const CHECK_EVERY_MS = 60_000;

/**
 * The renewal's answer, checked without zod: this runs in the first screen's code, which must not
 * wait for the validation library (the bundle budget; current-user.ts does the same).
 */
const tokenCheck: ResponseCheck<TokenResponse> = {
  parse(value) {
    const token = value as Partial<TokenResponse> | null;
    if (
      !token ||
      typeof token.access_token !== 'string' ||
      typeof token.user_id !== 'number' ||
      !isUserType(token.user_type)
    ) {
      throw new Error('Unexpected response from /api/auth/renew');
    }
    return token as TokenResponse;
  },
};

/** When a token was issued and when it ends (seconds), read without checking: only to time its renewal. */
export function tokenTimes(token: string): { issuedAt: number; expiresAt: number } | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      iat?: unknown;
      exp?: unknown;
    };
    return typeof payload.iat === 'number' && typeof payload.exp === 'number'
      ? { issuedAt: payload.iat, expiresAt: payload.exp }
      : null;
  } catch {
    return null;
  }
}

/**
 * When a token is due (past half its life) and how often to look at it while its user works: at
 * most once a minute, and a quarter of a shorter life (a TOKEN_TTL of a few minutes ran out between
 * looks). Null for a token without its times, never renewed.
 */
function renewalTimingOf(token: string): { dueAtMs: number; lookEveryMs: number } | null {
  const times = tokenTimes(token);
  if (!times) return null;
  const lifeMs = (times.expiresAt - times.issuedAt) * 1000;
  return { dueAtMs: times.issuedAt * 1000 + lifeMs / 2, lookEveryMs: Math.min(CHECK_EVERY_MS, lifeMs / 4) };
}

/** Past half its life: renewed at the next sign of its user. */
export function isDueForRenewal(token: string, nowMs = Date.now()): boolean {
  const timing = renewalTimingOf(token);
  return timing !== null && nowMs >= timing.dueAtMs;
}

/**
 * Renews the session while its user is at work (a key pressed, a tap), once it is past half its
 * life: a nurse signed in at 08:00 is not signed out at 20:00 in the middle of a collection. A tab
 * left alone is not renewed, so a device left signed in still ends TOKEN_TTL after it was last
 * used. The server stops renewing a week after the sign-in (POST /api/auth/renew).
 */
export function watchActivityForRenewal(renew: (token: TokenResponse) => void): () => void {
  let lastCheck = 0;
  let renewing = false;
  /** A token the server would not renew (its session's week is over): not asked again. */
  let refused: string | null = null;
  // Read again only when the token changes: a wheel fires many times a second.
  let timed: { token: string; timing: ReturnType<typeof renewalTimingOf> } | null = null;
  const onActivity = () => {
    const now = Date.now();
    const token = readToken();
    if (renewing || !token || token === refused) return;
    if (timed?.token !== token) timed = { token, timing: renewalTimingOf(token) };
    const { timing } = timed;
    if (!timing || now - lastCheck < timing.lookEveryMs) return;
    lastCheck = now;
    if (now < timing.dueAtMs) return;
    renewing = true;
    // The token is given explicitly: a refusal (a session too old to renew) ends nothing; the
    // session goes on until its token ends.
    apiRequest('/auth/renew', { method: 'POST', auth: token, schema: tokenCheck })
      .then((renewed) => {
        // Another tab may have signed someone else in meanwhile.
        if (readToken() === token) renew(renewed);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 403) refused = token;
      })
      .finally(() => {
        renewing = false;
      });
  };
  // A key, a tap or a click, and a mouse wheel or touchpad scrolling a long list.
  const events = ['keydown', 'pointerdown', 'wheel'] as const;
  for (const event of events) window.addEventListener(event, onActivity, { capture: true, passive: true });
  return () => {
    for (const event of events) window.removeEventListener(event, onActivity, { capture: true });
  };
}
