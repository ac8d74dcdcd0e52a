import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/ui/page-loader';
import { AppLayout } from './layout/app-layout';
import { paths } from './paths';
import { RouteError } from './route-error';
import { RequireRole } from './route-guard';

/**
 * Each feature's routes module is loaded with import() on first visit, so every area (home,
 * sign-in, donor, patient, admin) is its own chunk and a visitor never downloads the admin screens.
 */
const homeArea = () => import('@/features/home/routes');
const authArea = () => import('@/features/auth/routes');
const donorArea = () => import('@/features/donor/routes');
const patientArea = () => import('@/features/patient/routes');
const adminArea = () => import('@/features/admin/routes');
const notificationsArea = () => import('@/features/notifications/routes');

function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await load()) });
}

export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    ErrorBoundary: RouteError,
    children: [
      {
        // Pathless: header and footer stay on screen while the first area loads.
        HydrateFallback: PageLoader,
        ErrorBoundary: RouteError,
        children: [
          { index: true, lazy: lazyPage(homeArea, (m) => m.HomeRoute) },

          { path: paths.donor.login, lazy: lazyPage(authArea, (m) => m.DonorLoginRoute) },
          { path: paths.donor.signup, lazy: lazyPage(authArea, (m) => m.DonorSignupRoute) },
          { path: paths.patient.login, lazy: lazyPage(authArea, (m) => m.PatientLoginRoute) },
          { path: paths.patient.signup, lazy: lazyPage(authArea, (m) => m.PatientSignupRoute) },
          { path: paths.admin.login, lazy: lazyPage(authArea, (m) => m.AdminLoginRoute) },
          { path: paths.forgotPassword, lazy: lazyPage(authArea, (m) => m.ForgotPasswordRoute) },
          { path: paths.resetPassword, lazy: lazyPage(authArea, (m) => m.ResetPasswordRoute) },

          {
            // Everyone's account and password; e-mail and call-out choices only for donors and
            // patients (PRODUCT.md 3.8), which the screen leaves out for staff.
            element: <RequireRole allow={['ADMIN', 'DONOR', 'PATIENT']} />,
            children: [
              { path: paths.notifications, lazy: lazyPage(notificationsArea, (m) => m.NotificationsRoute) },
              { path: paths.profile, lazy: lazyPage(notificationsArea, (m) => m.ProfileRoute) },
            ],
          },

          {
            element: <RequireRole allow={['DONOR']} />,
            children: [
              { path: paths.donor.dashboard, lazy: lazyPage(donorArea, (m) => m.DonorDashboardRoute) },
              { path: paths.donor.donate, lazy: lazyPage(donorArea, (m) => m.DonateBloodRoute) },
              { path: paths.donor.game, lazy: lazyPage(donorArea, (m) => m.GameDashboardRoute) },
            ],
          },
          {
            element: <RequireRole allow={['PATIENT']} />,
            children: [
              { path: paths.patient.dashboard, lazy: lazyPage(patientArea, (m) => m.PatientDashboardRoute) },
              { path: paths.patient.makeRequest, lazy: lazyPage(patientArea, (m) => m.MakeRequestRoute) },
            ],
          },
          {
            element: <RequireRole allow={['ADMIN']} />,
            children: [
              { path: paths.admin.dashboard, lazy: lazyPage(adminArea, (m) => m.AdminDashboardRoute) },
              { path: paths.admin.donors, lazy: lazyPage(adminArea, (m) => m.ManageDonorsRoute) },
              { path: paths.admin.patients, lazy: lazyPage(adminArea, (m) => m.ManagePatientsRoute) },
              { path: paths.admin.blood, lazy: lazyPage(adminArea, (m) => m.ManageBloodRoute) },
              { path: paths.admin.requests, lazy: lazyPage(adminArea, (m) => m.ManageRequestsRoute) },
              { path: paths.admin.donations, lazy: lazyPage(adminArea, (m) => m.ManageDonationsRoute) },
              { path: paths.admin.sites, lazy: lazyPage(adminArea, (m) => m.SitesRoute) },
              { path: paths.admin.callouts, lazy: lazyPage(adminArea, (m) => m.CalloutsRoute) },
              { path: paths.admin.audit, lazy: lazyPage(adminArea, (m) => m.AuditLogRoute) },
            ],
          },

          // PRODUCT.md section 1: /admin-dashboard is the other reading of the spec.
          { path: paths.admin.dashboardAlias, element: <Navigate to={paths.admin.dashboard} replace /> },
          // Spec section 2: the landing page is the fallback for any unknown path.
          { path: '*', element: <Navigate to={paths.home} replace /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
