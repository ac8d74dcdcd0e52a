import { useEffect } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PASSWORD_CHANGE_MESSAGES, passwordField, withPasswordConfirmation } from '@bloodbank/shared/auth';
import { PasswordField } from '@/components/forms/password-field';
import { SaveErrorAlert } from '@/components/ui/error-alert';
import {
  applyServerFieldErrors,
  fieldBinder,
  focusFirstInvalidField,
  formAlertMessage,
} from '@/lib/form-errors';
import { useChangePassword } from '../api/change-password';

/** The server's rules (PasswordChangeSchema) and registration's confirm-password rule. */
export const PasswordChangeFormSchema = withPasswordConfirmation(
  z.object({
    current_password: z.string().min(1, PASSWORD_CHANGE_MESSAGES.currentNeeded).max(1024),
    new_password: passwordField,
  }),
  { password: 'new_password', confirm: 'confirm_password' },
).refine((form) => form.new_password !== form.current_password, {
  path: ['new_password'],
  message: PASSWORD_CHANGE_MESSAGES.sameAsCurrent,
  // Checked once both have something in them, as the confirmation is.
  when: (payload) => {
    const value = payload.value as Record<string, unknown>;
    return [value.current_password, value.new_password].every(
      (text) => typeof text === 'string' && text !== '',
    );
  },
});
type PasswordChangeValues = z.infer<typeof PasswordChangeFormSchema>;
const SERVER_FIELDS = ['current_password', 'new_password'] as const;

/**
 * Any signed-in user chooses a new password with their current one (POST /api/users/me/password).
 * This device stays signed in; every other one is signed out.
 */
export function PasswordChangeForm({ onDone }: { onDone: (changed: boolean) => void }) {
  const form = useForm<PasswordChangeValues>({
    resolver: zodResolver(PasswordChangeFormSchema),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
    shouldFocusError: false,
  });
  const change = useChangePassword();
  const field = fieldBinder(form);
  // Opened from Change Password: the keyboard goes on in the form.
  useEffect(() => form.setFocus('current_password'), [form]);

  const submit = form.handleSubmit((values) => {
    change.mutate(
      { current_password: values.current_password, new_password: values.new_password },
      {
        onSuccess: () => onDone(true),
        onError: (error) => applyServerFieldErrors(form, error, SERVER_FIELDS),
      },
    );
  }, focusFirstInvalidField);

  const alertMessage = change.isError
    ? formAlertMessage(change.error, SERVER_FIELDS, 'Your password could not be changed. Please try again.')
    : null;

  return (
    <form
      noValidate
      aria-label="Change your password"
      onSubmit={(event) => {
        change.reset();
        void submit(event);
      }}
    >
      <Stack gap="sm">
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          withAsterisk
          {...field('current_password')}
        />
        <PasswordField
          label="New Password"
          description="At least 6 characters"
          autoComplete="new-password"
          withAsterisk
          {...field('new_password')}
        />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          withAsterisk
          {...field('confirm_password')}
        />
        {alertMessage ? <SaveErrorAlert message={alertMessage} /> : null}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={() => onDone(false)} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            Save Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
