import { TokenResponseSchema, type TokenResponse } from '@bloodbank/shared/auth';
import { apiRequest } from '../api-client';
import { readToken } from '../session-storage';

/** At most one look at the token per this many ms of activity. */
const CHECK_EVERY_MS = 60_000;

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

/** Past half its life: renewed at the next sign of its user. */
export function isDueForRenewal(token: string, nowMs = Date.now()): boolean {
  const times = tokenTimes(token);
  return times !== null && nowMs / 1000 >= (times.issuedAt + times.expiresAt) / 2;
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
  const onActivity = () => {
    const now = Date.now();
    if (renewing || now - lastCheck < CHECK_EVERY_MS) return;
    lastCheck = now;
    const token = readToken();
    if (!token || !isDueForRenewal(token, now)) return;
    renewing = true;
    // The token is given explicitly: a refusal (a session too old to renew) ends nothing; the
    // session goes on until its token ends.
    apiRequest('/auth/renew', { method: 'POST', auth: token, schema: TokenResponseSchema })
      .then((renewed) => {
        // Another tab may have signed someone else in meanwhile.
        if (readToken() === token) renew(renewed);
      })
      .catch(() => undefined)
      .finally(() => {
        renewing = false;
      });
  };
  const events = ['keydown', 'pointerdown'] as const;
  for (const event of events) window.addEventListener(event, onActivity, { capture: true, passive: true });
  return () => {
    for (const event of events) window.removeEventListener(event, onActivity, { capture: true });
  };
}
