import { PatientDashboard } from './components/patient-dashboard';
import { RequestBloodPage } from './components/request-blood-page';

/** The patient area (role PATIENT), one chunk loaded by app/router.tsx. */

export function PatientDashboardRoute() {
  return <PatientDashboard />;
}

export function MakeRequestRoute() {
  return <RequestBloodPage />;
}
