import type { UserType } from '@bloodbank/shared/auth';
import { isUserType } from '@bloodbank/shared/roles';

/**
 * The stored session (spec section 3: token, userType and userId). This file is the only one that
 * knows the localStorage keys, so signing out can never leave a stray key behind. Only the token
 * is trusted: who the user is always comes from GET /api/users/me.
 */
export interface StoredSession {
  token: string;
  userType: UserType;
  userId: number;
}

const KEYS = { token: 'token', userType: 'userType', userId: 'userId' } as const;

/** Used when storage is unavailable (private mode, blocked site data): the session then ends with the tab. */
let memoryToken: string | null = null;

export function readToken(): string | null {
  try {
    return localStorage.getItem(KEYS.token) || null;
  } catch {
    return memoryToken;
  }
}

export function writeSession(session: StoredSession): void {
  memoryToken = session.token;
  try {
    localStorage.setItem(KEYS.token, session.token);
    localStorage.setItem(KEYS.userType, session.userType);
    localStorage.setItem(KEYS.userId, String(session.userId));
  } catch {
    // memoryToken carries the session instead.
  }
}

export function clearSession(): void {
  memoryToken = null;
  try {
    for (const key of Object.values(KEYS)) localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** Whether a `storage` event (another tab) changed the session. */
export function isSessionChange(event: StorageEvent): boolean {
  return event.key === null || event.key === KEYS.token;
}

/** The signed-in user's id as stored, or null. */
export function readStoredUserId(): number | null {
  try {
    const stored = Number(localStorage.getItem(KEYS.userId));
    return Number.isInteger(stored) && stored > 0 ? stored : null;
  } catch {
    return null;
  }
}

const SIGNED_OUT_KEY = 'signedOut';

/**
 * Tells the other tabs that this one signed out (each gets a `storage` event), as opposed to a
 * session that expired, which also removes the token: a sign-out ends their form drafts too.
 */
export function announceSignOut(): void {
  try {
    localStorage.setItem(SIGNED_OUT_KEY, String(Date.now()));
    localStorage.removeItem(SIGNED_OUT_KEY);
  } catch {
    // No storage, no other tab to tell.
  }
}

/** Whether a `storage` event is another tab's announceSignOut. */
export function isSignOutAnnouncement(event: StorageEvent): boolean {
  return event.key === SIGNED_OUT_KEY && event.newValue !== null;
}

/** A session the server ended while it was in use (expired, revoked): whose it was. */
export interface ExpiredSession {
  userType: UserType;
}

const EXPIRED_KEY = 'sessionExpired';
const EXPIRED_MARK_LIFETIME_MS = 10_000;

/**
 * Kept for this tab only (sessionStorage): the route guard then sends the user to their login page
 * with a word of why, and the login brings them back, instead of landing them on the home page.
 */
export function rememberExpiredSession(expired: ExpiredSession): void {
  try {
    sessionStorage.setItem(EXPIRED_KEY, JSON.stringify({ ...expired, at: Date.now() }));
  } catch {
    // Without storage the user lands on the home page, as after any sign-out.
  }
}

/** The expired session, once: reading it forgets it. */
export function takeExpiredSession(): ExpiredSession | null {
  try {
    const stored = sessionStorage.getItem(EXPIRED_KEY);
    sessionStorage.removeItem(EXPIRED_KEY);
    if (!stored) return null;
    const { userType, at } = JSON.parse(stored) as Partial<ExpiredSession & { at: number }>;
    // Read by the route guard of the page the user is on as the session ends. One ended on a page
    // without a guard (the home page) is no reason to send a later visit to a login page.
    if (typeof at !== 'number' || Date.now() - at > EXPIRED_MARK_LIFETIME_MS) return null;
    return isUserType(userType) ? { userType } : null;
  } catch {
    return null;
  }
}

export function forgetExpiredSession(): void {
  try {
    sessionStorage.removeItem(EXPIRED_KEY);
  } catch {
    // Nothing stored.
  }
}
