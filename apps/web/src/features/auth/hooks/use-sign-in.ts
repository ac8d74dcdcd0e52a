import { useWriteMutation } from '@/lib/use-write-mutation';
import type { CurrentUser, LoginForm, TokenResponse, UserType } from '@bloodbank/shared/auth';
import { MESSAGES } from '@bloodbank/shared/constants';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-context';
import { getCurrentUser } from '@/lib/auth/current-user';
import { createToken } from '../api/create-token';

const ROLE_LABELS: Record<UserType, string> = { admin: 'admin', donor: 'donor', patient: 'patient' };
const LOGIN_PAGE_NAMES: Record<UserType, string> = {
  admin: 'Admin Login',
  donor: 'Donor Login',
  patient: 'Patient Login',
};

/** The account exists but belongs to another role than the login page it was used on. */
export class WrongLoginPageError extends Error {
  constructor(readonly actual: UserType) {
    super(
      `This is a ${ROLE_LABELS[actual]} account. Please use the ${LOGIN_PAGE_NAMES[actual]} page to sign in.`,
    );
    this.name = 'WrongLoginPageError';
  }
}

export interface SignedIn {
  token: TokenResponse;
  user: CurrentUser;
}

/**
 * Gets a token, refuses it when the account is of another role than the page asked for (so a donor
 * on the patient page is not signed in at all), and loads the user with it before anything is stored.
 */
export async function authenticate(credentials: LoginForm, expected: UserType): Promise<SignedIn> {
  const token = await createToken(credentials);
  if (token.user_type !== expected) throw new WrongLoginPageError(token.user_type);
  const user = await getCurrentUser({ token: token.access_token });
  return { token, user };
}

/** The message for a failed sign-in (spec section 8): the server's detail, else the fallback. */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof WrongLoginPageError) return error.message;
  return errorMessage(error, MESSAGES.loginFailed);
}

export function useSignIn(expected: UserType) {
  const auth = useAuth();
  return useWriteMutation({
    mutationFn: (credentials: LoginForm) => authenticate(credentials, expected),
    onSuccess: ({ token, user }) => auth.signIn(token, user),
  });
}
