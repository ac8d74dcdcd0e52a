import { createContext, useContext } from 'react';
import type { CurrentUser, Role, TokenResponse } from '@bloodbank/shared/auth';

/** Spec section 4: loading at first, then signed out or signed in with the user and the role. */
export type AuthState =
  | { status: 'loading'; user: null; role: null }
  | { status: 'signed-out'; user: null; role: null }
  | { status: 'signed-in'; user: CurrentUser; role: Role };

export type AuthContextValue = AuthState & {
  /** Stores the session and the user; the token must already be checked against /api/users/me. */
  signIn: (token: TokenResponse, user: CurrentUser) => void;
  /** The same user's new token (a renewal, or a password change that ended the old one); cached answers stay. */
  renewSession: (token: TokenResponse) => void;
  /** Clears the stored session and every cached server answer. Navigation is the caller's choice. */
  signOut: () => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** The name the header and greetings use: first name, else username, else "User" (spec section 2). */
export function displayNameOf(user: Pick<CurrentUser, 'first_name' | 'username'> | null): string {
  return user?.first_name?.trim() || user?.username?.trim() || 'User';
}
