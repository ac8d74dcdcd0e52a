import { useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '@bloodbank/shared/auth';
import { PageLoader } from '@/components/ui/page-loader';
import { useAuth } from '@/lib/auth/auth-context';
import { takeExpiredSession } from '@/lib/session-storage';
import type { LoginLocationState } from '@/features/auth/components/login-page';
import { dashboardPathFor, loginPathFor, paths } from './paths';

/**
 * The route guard of spec section 2: a spinner while the session is checked, the home page for
 * signed-out visitors, and their own dashboard for users of another role.
 */
export function RequireRole({ allow }: { allow: readonly Role[] }) {
  const auth = useAuth();
  if (auth.status === 'loading') return <PageLoader label="Checking your session" />;
  if (auth.status === 'signed-out') return <SignedOut />;
  if (!allow.includes(auth.role)) return <Navigate to={dashboardPathFor(auth.role)} replace />;
  return <Outlet />;
}

/**
 * Signed out: the home page (spec section 2), unless the server ended the session while it was in
 * use. Then the user's login page says so, and brings them back here once they have signed in.
 */
function SignedOut() {
  const location = useLocation();
  // Read once per mount: reading forgets it, so a later visit lands on the home page again.
  const [expired] = useState(takeExpiredSession);
  if (!expired) return <Navigate to={paths.home} replace />;
  const state: LoginLocationState = { expired: true, from: `${location.pathname}${location.search}` };
  return <Navigate to={loginPathFor(expired.userType)} replace state={state} />;
}
