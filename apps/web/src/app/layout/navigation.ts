import type { Role } from '@bloodbank/shared/auth';
import { paths } from '../paths';

export interface NavItem {
  label: string;
  to: string;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** Spec section 2, navigation bar: what a visitor sees besides Home and the Admin link. */
export const VISITOR_GROUPS: NavGroup[] = [
  {
    label: 'Donor',
    items: [
      { label: 'Login', to: paths.donor.login },
      { label: 'Register', to: paths.donor.signup },
    ],
  },
  {
    label: 'Patient',
    items: [
      { label: 'Login', to: paths.patient.login },
      { label: 'Register', to: paths.patient.signup },
    ],
  },
];

export const ADMIN_LINK: NavItem = { label: 'Admin', to: paths.admin.login };
export const HOME_LINK: NavItem = { label: 'Home', to: paths.home };

/**
 * The admin area's sections. The header bar keeps the spec's single Dashboard link; the admin
 * screens show them all in their own navigation, and the phone's burger menu lists them too.
 */
export const ADMIN_SECTIONS: NavItem[] = [
  { label: 'Dashboard', to: paths.admin.dashboard },
  { label: 'Donors', to: paths.admin.donors },
  { label: 'Patients', to: paths.admin.patients },
  { label: 'Blood', to: paths.admin.blood },
  { label: 'Requests', to: paths.admin.requests },
  { label: 'Donations', to: paths.admin.donations },
  { label: 'Sites', to: paths.admin.sites },
  { label: 'Call-outs', to: paths.admin.callouts },
  { label: 'Audit Log', to: paths.admin.audit },
];

/** The role links of a signed-in user (spec section 2). */
export function roleLinks(role: Role): NavItem[] {
  switch (role) {
    case 'ADMIN':
      return [{ label: 'Dashboard', to: paths.admin.dashboard }];
    case 'DONOR':
      return [
        { label: 'Dashboard', to: paths.donor.dashboard },
        { label: 'Donate Blood', to: paths.donor.donate },
      ];
    case 'PATIENT':
      return [
        { label: 'Dashboard', to: paths.patient.dashboard },
        { label: 'Request Blood', to: paths.patient.makeRequest },
      ];
  }
}
