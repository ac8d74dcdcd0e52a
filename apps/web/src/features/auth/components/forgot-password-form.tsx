import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { useForm, type Resolver } from 'react-hook-form';
import {
  PASSWORD_RESET_MESSAGES,
  PasswordResetRequestSchema,
  type PasswordResetRequest,
} from '@bloodbank/shared/notifications';
import type { UserType } from '@bloodbank/shared/auth';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useFocusOnShow } from '@/lib/use-focus-on-show';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { SignInLinks } from './sign-in-links';

interface ForgotPasswordValues {
  /** A username, or an e-mail address (anything with an @). */
  identifier: string;
}

/** One field for either: an @ makes it an e-mail address, as people type them. */
function toRequest(identifier: string): PasswordResetRequest {
  const value = identifier.trim();
  return value.includes('@') ? { email: value } : { username: value };
}

/** The shared schema's rules and messages, on the form's one field. */
const resolver: Resolver<ForgotPasswordValues, unknown, PasswordResetRequest> = (values) => {
  const result = PasswordResetRequestSchema.safeParse(toRequest(values.identifier));
  if (result.success) return { values: result.data, errors: {} as Record<string, never> };
  const message = result.error.issues[0]?.message ?? PASSWORD_RESET_MESSAGES.usernameOrEmail;
  return { values: {}, errors: { identifier: { type: 'validation', message } } };
};

/**
 * Asks for a reset link (PRODUCT.md 3.8). The answer is the same whether or not the account exists,
 * so the page shows the server's words and nothing more.
 */
export function ForgotPasswordForm({ userType }: { userType: UserType | null }) {
  const request = useRequestPasswordReset();
  const form = useForm<ForgotPasswordValues, unknown, PasswordResetRequest>({
    resolver,
    defaultValues: { identifier: '' },
  });

  const submit = form.handleSubmit((body) => {
    request.mutate(body, {
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        const fieldMessage = error.errors.username ?? error.errors.email;
        if (fieldMessage)
          form.setError('identifier', { type: 'server', message: fieldMessage }, { shouldFocus: true });
      },
    });
  });

  if (request.isSuccess) {
    return <LinkSent detail={request.data.detail} userType={userType} onAskAgain={() => request.reset()} />;
  }

  const failed = request.isError && (!(request.error instanceof ApiError) || request.error.status !== 422);
  return (
    <form
      noValidate
      aria-label="Forgot password"
      onSubmit={(event) => {
        request.reset();
        void submit(event);
      }}
    >
      <Stack gap="md">
        {failed ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {errorMessage(request.error, 'The reset link could not be requested. Please try again.')}
          </Alert>
        ) : null}
        <TextInput
          label="Username or e-mail"
          description="The one you registered with"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          withAsterisk
          error={form.formState.errors.identifier?.message}
          {...form.register('identifier')}
        />
        <Button type="submit" size="md" fullWidth disabled={request.isPending} mt="xs">
          {request.isPending ? 'Sending...' : 'Send reset link'}
        </Button>
        <SignInLinks userType={userType} />
      </Stack>
    </form>
  );
}

/**
 * The answer replaces the form, and with it the button that had focus: focus moves to the answer,
 * so a screen reader reads it (a status region inserted already filled is often skipped).
 */
function LinkSent({
  detail,
  userType,
  onAskAgain,
}: {
  detail: string;
  userType: UserType | null;
  onAskAgain: () => void;
}) {
  const ref = useFocusOnShow<HTMLDivElement>();
  return (
    <Stack gap="md">
      <Alert
        ref={ref}
        tabIndex={-1}
        color="teal"
        variant="light"
        icon={<IconMailForward aria-hidden />}
        role="status"
      >
        {detail}
      </Alert>
      <Text size="sm" ta="center">
        No e-mail after a few minutes? Check the spam folder, or{' '}
        <Button variant="transparent" size="compact-sm" px={0} onClick={onAskAgain}>
          ask again
        </Button>
        .
      </Text>
      <SignInLinks userType={userType} />
    </Stack>
  );
}
