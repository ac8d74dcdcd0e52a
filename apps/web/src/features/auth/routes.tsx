import { useDocumentTitle } from '@mantine/hooks';
import { IconHeartHandshake, IconKey, IconLockQuestion, IconUserPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { AuthCard } from './components/auth-card';
import { DonorRegistrationForm } from './components/donor-registration-form';
import { ForgotPasswordForm } from './components/forgot-password-form';
import { LoginPage } from './components/login-page';
import { PatientRegistrationForm } from './components/patient-registration-form';
import { ResetPasswordForm } from './components/reset-password-form';
import { userTypeFrom } from './components/sign-in-links';

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

export function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password · Blood Bank');
  const [search] = useSearchParams();
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your username or e-mail address and we will e-mail you a link to set a new one."
      icon={<IconLockQuestion size={28} />}
    >
      <ForgotPasswordForm userType={userTypeFrom(search.get('as'))} />
    </AuthCard>
  );
}

export function ResetPasswordRoute() {
  useDocumentTitle('Set a new password · Blood Bank');
  const [search] = useSearchParams();
  return (
    <AuthCard
      title="Set a new password"
      subtitle="Choose a new password for your account. The link works once, for one hour."
      icon={<IconKey size={28} />}
    >
      <ResetPasswordForm token={search.get('token')} />
    </AuthCard>
  );
}
