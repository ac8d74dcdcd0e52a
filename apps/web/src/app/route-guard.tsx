import { Navigate, Outlet } from 'react-router';
import type { Role } from '@bloodbank/shared/auth';
import { PageLoader } from '@/components/ui/page-loader';
import { useAuth } from '@/lib/auth/auth-context';
import { dashboardPathFor, paths } from './paths';

/**
 * The route guard of spec section 2: a spinner while the session is checked, the home page for
 * signed-out visitors, and their own dashboard for users of another role.
 */
export function RequireRole({ allow }: { allow: readonly Role[] }) {
  const auth = useAuth();
  if (auth.status === 'loading') return <PageLoader label="Checking your session" />;
  if (auth.status === 'signed-out') return <Navigate to={paths.home} replace />;
  if (!allow.includes(auth.role)) return <Navigate to={dashboardPathFor(auth.role)} replace />;
  return <Outlet />;
}
