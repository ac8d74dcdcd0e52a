import { useDocumentTitle } from '@mantine/hooks';
import { IconHeartHandshake, IconUserPlus } from '@tabler/icons-react';
import { AuthCard } from './components/auth-card';
import { DonorRegistrationForm } from './components/donor-registration-form';
import { LoginPage } from './components/login-page';
import { PatientRegistrationForm } from './components/patient-registration-form';

/** The public sign-in and sign-up screens (spec section 2), one chunk loaded by app/router.tsx. */

export function DonorLoginRoute() {
  return <LoginPage userType="donor" />;
}

export function PatientLoginRoute() {
  return <LoginPage userType="patient" />;
}

export function AdminLoginRoute() {
  return <LoginPage userType="admin" />;
}

export function DonorSignupRoute() {
  useDocumentTitle('Donor Registration · Blood Bank');
  return (
    <AuthCard
      size="sm"
      title="Donor Registration"
      subtitle="Create your donor account and start saving lives."
      icon={<IconUserPlus size={28} />}
    >
      <DonorRegistrationForm />
    </AuthCard>
  );
}

export function PatientSignupRoute() {
  useDocumentTitle('Patient Registration · Blood Bank');
  return (
    <AuthCard
      size="sm"
      title="Patient Registration"
      subtitle="Create your patient account to request the blood you need."
      icon={<IconHeartHandshake size={28} />}
    >
      <PatientRegistrationForm />
    </AuthCard>
  );
}
