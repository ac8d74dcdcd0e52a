import type { UserType } from '@bloodbank/shared/auth';

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
