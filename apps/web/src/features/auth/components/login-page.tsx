import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { PasswordField } from '@/components/forms/password-field';
import { useDocumentTitle } from '@mantine/hooks';
import {
  IconAlertCircle,
  IconClockExclamation,
  IconCircleCheck,
  IconDroplet,
  IconShieldLock,
  IconStethoscope,
  IconUserCheck,
} from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginFormSchema, roleOf, type LoginForm, type Role, type UserType } from '@bloodbank/shared/auth';
import { MESSAGES } from '@bloodbank/shared/constants';
import { dashboardPathFor, paths } from '@/app/paths';
import { LiveMessage } from '@/components/ui/live-message';
import { PageLoader } from '@/components/ui/page-loader';
import { displayNameOf, useAuth } from '@/lib/auth/auth-context';
import { useSingleFlight } from '@/lib/use-single-flight';
import { signInErrorMessage, useSignIn } from '../hooks/use-sign-in';
import { AuthCard } from './auth-card';

const COPY: Record<UserType, { title: string; subtitle: string; icon: ReactNode }> = {
  donor: {
    title: 'Donor Login',
    subtitle: 'Sign in to donate blood and follow your donations.',
    icon: <IconDroplet size={28} />,
  },
  patient: {
    title: 'Patient Login',
    subtitle: 'Sign in to request blood and follow your requests.',
    icon: <IconStethoscope size={28} />,
  },
  admin: {
    title: 'Admin Login',
    subtitle: 'Sign in to manage the blood bank.',
    icon: <IconShieldLock size={28} />,
  },
};

/** Where a visitor without an account signs up; the admin has no self-registration. */
const SIGNUP_PATHS: Partial<Record<UserType, string>> = {
  donor: paths.donor.signup,
  patient: paths.patient.signup,
};

const ROLE_NAMES: Record<Role, string> = { ADMIN: 'an admin', DONOR: 'a donor', PATIENT: 'a patient' };

/** Set by the screens that send a user here. */
export interface LoginLocationState {
  /** The registration screens: the account was just made. */
  registered?: boolean;
  /** The route guard: the server ended the session while it was in use (app/route-guard.tsx). */
  expired?: boolean;
  /** Where to go back to once signed in (a path in the app). */
  from?: string;
}

/**
 * The page to open after signing in: the one the session expired on, or an e-mail's link asked for,
 * if it is of this role's app.
 */
export function afterSignInPath(role: Role, from: string | undefined): string {
  const dashboard = dashboardPathFor(role);
  if (!from || !from.startsWith('/') || from.startsWith('//')) return dashboard;
  const area = dashboard.split('/')[1];
  // Admin paths are /admin/... and /admin-...; the shared pages (notifications, profile) fit anyone.
  const shared = [paths.notifications, paths.profile].some((path) => from.startsWith(path));
  return shared || from.startsWith(`/${area}`) ? from : dashboard;
}

export function LoginPage({ userType }: { userType: UserType }) {
  const copy = COPY[userType];
  useDocumentTitle(`${copy.title} · Blood Bank`);
  const auth = useAuth();
  const signIn = useSignIn(userType);
  // A sign-in made here (pending until it has navigated away) is on its way to the dashboard; only
  // a session from before gets the choice.
  const signedInBefore = auth.status === 'signed-in' && signIn.isIdle;
  // An e-mail's link into the app opens here with ?next=<page> (server: notifications/notify.ts),
  // since it is often read where the reader is signed out; once signed in, that page opens.
  const [search] = useSearchParams();
  const next = search.get('next') ?? undefined;
  if (signedInBefore && next && auth.role === roleOf(userType)) {
    return <Navigate to={afterSignInPath(auth.role, next)} replace />;
  }

  return (
    <AuthCard title={copy.title} subtitle={copy.subtitle} icon={copy.icon}>
      {auth.status === 'loading' ? (
        <PageLoader label="Checking your session" />
      ) : signedInBefore ? (
        <SignedInChoice name={displayNameOf(auth.user)} role={auth.role} onSignOut={auth.signOut} />
      ) : (
        <LoginForm userType={userType} signIn={signIn} next={next} />
      )}
    </AuthCard>
  );
}

/**
 * A signed-in user who opens a login page (a bookmark, the home page's cards) is not asked to sign
 * in again: they go on to their dashboard, or log out to sign in with another account here.
 */
function SignedInChoice({ name, role, onSignOut }: { name: string; role: Role; onSignOut: () => void }) {
  return (
    <Stack gap="md" data-testid="signed-in-choice">
      <Alert color="blue" variant="light" icon={<IconUserCheck aria-hidden />} role="status">
        You are signed in as {name}, {ROLE_NAMES[role]}.
      </Alert>
      <Button component={Link} to={dashboardPathFor(role)} size="md" fullWidth>
        Go to my dashboard
      </Button>
      <Text size="sm" ta="center">
        To sign in with another account, log out first.
      </Text>
      <Button variant="default" size="md" fullWidth onClick={onSignOut}>
        Log out
      </Button>
    </Stack>
  );
}

function LoginForm({
  userType,
  signIn,
  next,
}: {
  userType: UserType;
  signIn: ReturnType<typeof useSignIn>;
  /** The page an e-mail's link asked for (?next=). */
  next: string | undefined;
}) {
  const copy = COPY[userType];
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as LoginLocationState | null;
  const justRegistered = state?.registered === true;
  const expired = state?.expired === true;
  const signupPath = SIGNUP_PATHS[userType];

  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginFormSchema),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;

  const once = useSingleFlight();
  const submit = form.handleSubmit((credentials) =>
    once((finish) => {
      // Spec section 2: the error text is cleared on each new attempt.
      signIn.reset();
      signIn.mutate(credentials, {
        onSuccess: ({ user }) =>
          void navigate(afterSignInPath(roleOf(user.userType), state?.from ?? next), { replace: true }),
        onSettled: finish,
      });
    }),
  );

  const busy = signIn.isPending;
  return (
    <form noValidate aria-label={copy.title} onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        {expired && !signIn.isError ? (
          <Alert color="blue" variant="light" icon={<IconClockExclamation aria-hidden />} role="status">
            {MESSAGES.sessionInvalid}
          </Alert>
        ) : null}
        {justRegistered && !signIn.isError ? (
          <LiveMessage>
            <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="note">
              {MESSAGES.registrationSuccessful}. Please log in with your new account.
            </Alert>
          </LiveMessage>
        ) : null}
        {signIn.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {signInErrorMessage(signIn.error)}
          </Alert>
        ) : null}
        <TextInput
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          withAsterisk
          error={errors.username?.message}
          {...form.register('username')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          withAsterisk
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Text size="sm" ta="right" mt={-8}>
          <Anchor component={Link} to={`${paths.forgotPassword}?as=${userType}`}>
            Forgot password?
          </Anchor>
        </Text>
        <Button type="submit" size="md" fullWidth disabled={busy} mt="xs">
          {busy ? 'Logging in...' : 'Login'}
        </Button>
        {signupPath ? (
          <Text size="sm" ta="center">
            Don&apos;t have an account?{' '}
            <Anchor component={Link} to={signupPath} fw={600}>
              Register here
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
