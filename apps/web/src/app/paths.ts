import type { Role, UserType } from '@bloodbank/shared/auth';

/** Every path of the single-page app (spec section 2 and PRODUCT.md section 1). */
export const paths = {
  home: '/',
  donor: {
    login: '/donor/donorlogin',
    signup: '/donor/donorsignup',
    dashboard: '/donor/donor-dashboard',
    donate: '/donor/donate',
    game: '/donor/game',
  },
  patient: {
    login: '/patient/patientlogin',
    signup: '/patient/patientsignup',
    dashboard: '/patient/patient-dashboard',
    makeRequest: '/patient/make-request',
  },
  admin: {
    login: '/admin/adminlogin',
    dashboard: '/admin/admin-dashboard',
    /** The other reading of the spec; redirects to `dashboard`. */
    dashboardAlias: '/admin-dashboard',
    donors: '/admin-donor',
    patients: '/admin-patient',
    blood: '/admin-blood',
    requests: '/admin-request',
    donations: '/admin-donation',
    sites: '/admin-sites',
    callouts: '/admin-callouts',
    audit: '/admin-audit',
  },
  /** Any signed-in user's notifications (PRODUCT.md 3.8). */
  notifications: '/notifications',
  /** A donor's or patient's account and e-mail choices. */
  profile: '/profile',
  /** Public: ask for a password reset link, and the page the e-mailed link opens. */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
} as const;

/** Where a signed-in user belongs (spec section 2, route guard). */
export function dashboardPathFor(role: Role | null): string {
  switch (role) {
    case 'ADMIN':
      return paths.admin.dashboard;
    case 'DONOR':
      return paths.donor.dashboard;
    case 'PATIENT':
      return paths.patient.dashboard;
    default:
      return paths.home;
  }
}

export function loginPathFor(userType: UserType): string {
  return paths[userType].login;
}
