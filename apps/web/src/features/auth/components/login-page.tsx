import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  IconAlertCircle,
  IconCircleCheck,
  IconDroplet,
  IconShieldLock,
  IconStethoscope,
} from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { LoginFormSchema, roleOf, type LoginForm, type UserType } from '@bloodbank/shared/auth';
import { MESSAGES } from '@bloodbank/shared/constants';
import { dashboardPathFor, paths } from '@/app/paths';
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

/** Set by the registration screens when they send the new user here. */
export interface LoginLocationState {
  registered?: boolean;
}

export function LoginPage({ userType }: { userType: UserType }) {
  const copy = COPY[userType];
  useDocumentTitle(`${copy.title} · Blood Bank`);
  const navigate = useNavigate();
  const location = useLocation();
  const justRegistered = (location.state as LoginLocationState | null)?.registered === true;

  const signIn = useSignIn(userType);
  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginFormSchema),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((credentials) => {
    signIn.mutate(credentials, {
      onSuccess: ({ user }) => void navigate(dashboardPathFor(roleOf(user.userType)), { replace: true }),
    });
  });

  const busy = signIn.isPending;
  return (
    <AuthCard title={copy.title} subtitle={copy.subtitle} icon={copy.icon}>
      <form
        noValidate
        aria-label={copy.title}
        onSubmit={(event) => {
          // Spec section 2: the error text is cleared on each new attempt.
          signIn.reset();
          void submit(event);
        }}
      >
        <Stack gap="md">
          {justRegistered && !signIn.isError ? (
            <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
              {MESSAGES.registrationSuccessful}. Please log in with your new account.
            </Alert>
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
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            withAsterisk
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Button type="submit" size="md" fullWidth disabled={busy} mt="xs">
            {busy ? 'Logging in...' : 'Login'}
          </Button>
          {userType === 'donor' ? (
            <Text size="sm" ta="center">
              Don&apos;t have an account?{' '}
              <Anchor component={Link} to={paths.donor.signup} fw={600}>
                Register here
              </Anchor>
            </Text>
          ) : null}
        </Stack>
      </form>
    </AuthCard>
  );
}
