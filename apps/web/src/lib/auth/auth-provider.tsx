import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, TokenResponse } from '@bloodbank/shared/auth';
import { roleOf } from '@bloodbank/shared/roles';
import { ApiError, onUnauthorized } from '../api-client';
import { forgetDrafts } from '../form-draft';
import {
  announceSignOut,
  clearSession,
  forgetExpiredSession,
  isSessionChange,
  isSignOutAnnouncement,
  readStoredUserId,
  readToken,
  rememberExpiredSession,
  writeSession,
} from '../session-storage';
import { AuthContext, type AuthContextValue, type AuthState } from './auth-context';
import { currentUserQueryKey, currentUserQueryOptions } from './current-user';
import { watchActivityForRenewal } from './session-renewal';

/** A sign-out announced by another tab explains a token gone within this long after it. */
const SIGN_OUT_ANNOUNCEMENT_MS = 5_000;

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [hasToken, setHasToken] = useState(() => readToken() !== null);
  const currentUser = useQuery({
    ...currentUserQueryOptions(),
    enabled: hasToken,
    // Refresh a loaded user; never re-ask for one the server already refused.
    refetchOnWindowFocus: (query) => query.state.data !== undefined,
  });

  const endSession = useCallback(() => {
    clearSession();
    setHasToken(false);
    // Nothing one user fetched may be shown to the next one on this device.
    queryClient.clear();
  }, [queryClient]);

  // Logging out: nothing of this user's is kept in the tab either.
  const signOut = useCallback(() => {
    forgetExpiredSession();
    forgetDrafts();
    // Told before the token goes, so the other tabs know the session was ended on purpose.
    announceSignOut();
    endSession();
  }, [endSession]);

  const signIn = useCallback(
    (token: TokenResponse, user: CurrentUser) => {
      forgetExpiredSession();
      // Another user's half-typed forms are not this one's to see.
      forgetDrafts(user.userId);
      queryClient.clear();
      writeSession({ token: token.access_token, userType: token.user_type, userId: token.user_id });
      queryClient.setQueryData(currentUserQueryKey, user);
      setHasToken(true);
    },
    [queryClient],
  );

  const renewSession = useCallback((token: TokenResponse) => {
    writeSession({ token: token.access_token, userType: token.user_type, userId: token.user_id });
    // Signed in with it, even if another tab ended the old token meanwhile and this one followed.
    forgetExpiredSession();
    setHasToken(true);
  }, []);

  // While someone works, their session is renewed (session-renewal.ts).
  useEffect(() => (hasToken ? watchActivityForRenewal(renewSession) : undefined), [hasToken, renewSession]);

  // Spec section 4: a stored token that /api/users/me does not accept is removed without a word,
  // and the app is signed out. Only at start-up (no user yet): a failed background refresh keeps
  // the user signed in, and a revoked session is caught by the 401 listener below.
  const startupFailed = hasToken && currentUser.isError && currentUser.data === undefined;
  // Only a token the server refused is removed: one met by a server restarting or a lost network
  // stays for the next visit, and the other tabs, which share it, are not signed out by this one.
  const tokenRefused =
    startupFailed && currentUser.error instanceof ApiError && currentUser.error.status === 401;
  useEffect(() => {
    if (tokenRefused) clearSession();
  }, [tokenRefused]);

  // A session the server ended while it was in use (expired, revoked): signed out too, and the route
  // guard then sends the user to log in again, with why, and back to this page afterwards. A token
  // refused at start-up is cleared silently (spec section 4): no user was loaded yet.
  useEffect(
    () =>
      onUnauthorized(() => {
        const user = queryClient.getQueryData<CurrentUser>(currentUserQueryKey);
        // Their drafts stay: signing in again brings them back to the page, and the page to its form.
        endSession();
        if (user) rememberExpiredSession({ userType: user.userType });
      }),
    [endSession, queryClient],
  );

  // Signing out (or in) in another tab applies here too, and so do the drafts it forgets: on a
  // shared phone, a form half-filled in this tab is not left for whoever signs in next.
  useEffect(() => {
    let signedOutElsewhereAt = 0;
    const onStorage = (event: StorageEvent) => {
      if (isSignOutAnnouncement(event)) {
        forgetDrafts();
        signedOutElsewhereAt = Date.now();
      }
      if (!isSessionChange(event)) return;
      if (readToken() === null) {
        // Gone without a sign-out: the server ended it (expired, revoked) and another tab heard it
        // first. This tab says so too, and brings its user back here once signed in again, as the
        // tab that heard it does; it no longer lands on the home page without a word.
        const user = queryClient.getQueryData<CurrentUser>(currentUserQueryKey);
        if (user && Date.now() - signedOutElsewhereAt > SIGN_OUT_ANNOUNCEMENT_MS) {
          rememberExpiredSession({ userType: user.userType });
        }
        setHasToken(false);
        queryClient.clear();
      } else {
        // Whose session it is now (every draft goes while that is not yet stored).
        forgetDrafts(readStoredUserId() ?? undefined);
        setHasToken(true);
        void queryClient.invalidateQueries();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(() => {
    let state: AuthState;
    if (!hasToken || startupFailed) state = { status: 'signed-out', user: null, role: null };
    else if (currentUser.data)
      state = { status: 'signed-in', user: currentUser.data, role: roleOf(currentUser.data.userType) };
    else state = { status: 'loading', user: null, role: null };
    return { ...state, signIn, renewSession, signOut };
  }, [hasToken, startupFailed, currentUser.data, signIn, renewSession, signOut]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
