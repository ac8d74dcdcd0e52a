import { AuditScreen } from './screens/audit-screen';
import { BloodScreen } from './screens/blood-screen';
import { CalloutsScreen } from './screens/callouts-screen';
import { AdminDashboardScreen } from './screens/dashboard-screen';
import { DonationsScreen } from './screens/donations-screen';
import { PeopleScreen } from './screens/people-screen';
import { RequestsScreen } from './screens/requests-screen';
import { SitesScreen } from './screens/sites-screen';

/** The admin area (role ADMIN), one chunk loaded by app/router.tsx. */

export function AdminDashboardRoute() {
  return <AdminDashboardScreen />;
}

export function ManageDonorsRoute() {
  return <PeopleScreen key="donors" kind="donors" />;
}

export function ManagePatientsRoute() {
  return <PeopleScreen key="patients" kind="patients" />;
}

export function ManageBloodRoute() {
  return <BloodScreen />;
}

export function ManageRequestsRoute() {
  return <RequestsScreen />;
}

export function ManageDonationsRoute() {
  return <DonationsScreen />;
}

export function SitesRoute() {
  return <SitesScreen />;
}

export function CalloutsRoute() {
  return <CalloutsScreen />;
}

export function AuditLogRoute() {
  return <AuditScreen />;
}
