import { Stack } from '@mantine/core';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DraftNotice } from '@/components/ui/draft-notice';
import { useFormDraft } from '@/lib/form-draft';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { DonorRegistrationFormSchema, DonorRegistrationSchema } from '@bloodbank/shared/auth';
import { paths } from '@/app/paths';
import { ApiError } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { useRegisterOnce } from '../api/register-account';
import { useProfilePicture } from '../hooks/use-profile-picture';
import type { LoginLocationState } from './login-page';
import { ProfilePictureInput } from './profile-picture-input';
import { AccountDetailsFields, PersonalDetailsFields } from './registration-fields';
import { RegistrationError, RegistrationSubmit } from './registration-form-footer';
import { OfflineNotice } from '@/components/ui/offline-notice';

type FormInput = z.input<typeof DonorRegistrationFormSchema>;
type FormOutput = z.output<typeof DonorRegistrationFormSchema>;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'mobile',
  'bloodgroup',
  'address',
  'username',
  'password',
  'confirmPassword',
] as const;

export function DonorRegistrationForm() {
  const navigate = useNavigate();
  const picture = useProfilePicture();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(DonorRegistrationFormSchema),
    defaultValues: {
      first_name: '',
      last_name: '',
      email: '',
      mobile: '',
      address: '',
      username: '',
      password: '',
      confirmPassword: '',
    },
  });
  // Kept while typing (never the passwords): a reload or the Back button loses nothing.
  const draft = useFormDraft(form, 'donor-registration', {
    owner: null,
    omit: ['password', 'confirmPassword'],
  });
  const field = fieldBinder(form);

  const registerOnce = useRegisterOnce();
  const registration = useWriteMutation({
    // Parsing with the API schema drops confirmPassword, which is never sent (spec section 3).
    mutationFn: (values: FormOutput) =>
      registerOnce(DonorRegistrationSchema.parse({ ...values, user_type: 'donor' }), picture.file),
    onSuccess: () => {
      draft.clear();
      const state: LoginLocationState = { registered: true };
      void navigate(paths.donor.login, { state });
    },
    onError: (error) => {
      applyServerFieldErrors(form, error, FIELDS);
      if (error instanceof ApiError && error.errors.profile_pic) picture.setError(error.errors.profile_pic);
    },
  });

  const submit = form.handleSubmit((values) => registration.mutate(values));
  const busy = registration.isPending;

  return (
    <form
      noValidate
      aria-label="Donor Registration"
      onSubmit={(event) => {
        registration.reset();
        void submit(event);
      }}
    >
      <Stack gap="lg">
        <DraftNotice draft={draft} onStartOver={() => form.reset()} />
        <PersonalDetailsFields field={field} />
        <AccountDetailsFields field={field} />
        <ProfilePictureInput picture={picture} disabled={busy} />
        {/* Beside the button, where a phone shows it: at the top of the form it was screens above. */}
        {registration.isError ? <RegistrationError error={registration.error} /> : null}
        <OfflineNotice waiting={registration.isPaused} />
        <RegistrationSubmit busy={busy} loginPath={paths.donor.login} />
      </Stack>
    </form>
  );
}
