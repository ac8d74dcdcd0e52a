import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { PasswordField } from '@/components/forms/password-field';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { passwordField, withPasswordConfirmation } from '@bloodbank/shared/auth';
import { PASSWORD_RESET_MESSAGES } from '@bloodbank/shared/notifications';
import { paths } from '@/app/paths';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { SignInLinks } from './sign-in-links';

/** Registration's password rules and its confirm-password rule, for the new password. */
export const ResetPasswordFormSchema = withPasswordConfirmation(z.object({ password: passwordField }));
type ResetPasswordValues = z.infer<typeof ResetPasswordFormSchema>;

/** The link's token is no good (missing, used, expired): say so and offer a new one. */
function InvalidLink() {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
        {PASSWORD_RESET_MESSAGES.invalidToken}
      </Alert>
      <Text size="sm" ta="center">
        <Anchor component={Link} to={paths.forgotPassword} fw={600}>
          Ask for a new reset link
        </Anchor>
      </Text>
    </Stack>
  );
}

/** Sets the new password with the e-mailed link's token (PRODUCT.md 3.8). */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const confirm = useConfirmPasswordReset();
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(ResetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  if (!token?.trim()) return <InvalidLink />;

  if (confirm.isSuccess) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          Your password was changed. Sign in with your new password; any other sessions of your account have
          ended.
        </Alert>
        <SignInLinks userType={null} />
      </Stack>
    );
  }

  const error = confirm.error;
  const invalidLink =
    error instanceof ApiError &&
    (error.status === 400 || (error.status === 422 && error.errors.token !== undefined));
  if (invalidLink) return <InvalidLink />;

  const submit = form.handleSubmit(({ password }) => {
    confirm.mutate(
      { token, password },
      {
        onError: (failure) => {
          const message = failure instanceof ApiError ? failure.errors.password : undefined;
          if (message) form.setError('password', { type: 'server', message }, { shouldFocus: true });
        },
      },
    );
  });

  const failed = confirm.isError && !(error instanceof ApiError && error.status === 422);
  return (
    <form
      noValidate
      aria-label="Set a new password"
      onSubmit={(event) => {
        confirm.reset();
        void submit(event);
      }}
    >
      <Stack gap="md">
        {failed ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {errorMessage(error, 'Your password could not be changed. Please try again.')}
          </Alert>
        ) : null}
        <PasswordField
          label="New password"
          description="At least 6 characters"
          autoComplete="new-password"
          withAsterisk
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          withAsterisk
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <Button type="submit" size="md" fullWidth disabled={confirm.isPending} mt="xs">
          {confirm.isPending ? 'Saving...' : 'Set new password'}
        </Button>
      </Stack>
    </form>
  );
}
