import { Stack } from '@mantine/core';
import { useWriteMutation } from '@/lib/use-write-mutation';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { DraftNotice } from '@/components/ui/draft-notice';
import { useFormDraft } from '@/lib/form-draft';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { PatientRegistrationFormSchema, PatientRegistrationSchema } from '@bloodbank/shared/auth';
import { paths } from '@/app/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-context';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { useRegisterOnce } from '../api/register-account';
import { authenticate } from '../hooks/use-sign-in';
import { useProfilePicture } from '../hooks/use-profile-picture';
import type { LoginLocationState } from './login-page';
import { ProfilePictureInput } from './profile-picture-input';
import { AccountDetailsFields, MedicalDetailsFields, PersonalDetailsFields } from './registration-fields';
import { RegistrationError, RegistrationSubmit } from './registration-form-footer';
import { OfflineNotice } from '@/components/ui/offline-notice';

type FormInput = z.input<typeof PatientRegistrationFormSchema>;
type FormOutput = z.output<typeof PatientRegistrationFormSchema>;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'mobile',
  'bloodgroup',
  'address',
  'age',
  'disease',
  'doctorname',
  'username',
  'password',
  'confirmPassword',
] as const;

/** The account was created but the automatic sign-in after it failed: the login page takes over. */
class RegisteredButNotSignedIn extends Error {}

export function PatientRegistrationForm() {
  const navigate = useNavigate();
  const auth = useAuth();
  const picture = useProfilePicture();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PatientRegistrationFormSchema),
    defaultValues: {
      first_name: '',
      last_name: '',
      email: '',
      mobile: '',
      address: '',
      age: '',
      doctorname: '',
      username: '',
      password: '',
      confirmPassword: '',
    },
  });
  // Kept while typing (never the passwords): a reload or the Back button loses nothing.
  const draft = useFormDraft(form, 'patient-registration', {
    owner: null,
    omit: ['password', 'confirmPassword'],
  });
  const field = fieldBinder(form);

  const registerOnce = useRegisterOnce();
  const registration = useWriteMutation({
    // Spec section 4: registration registers, then logs in with the same username and password.
    mutationFn: async (values: FormOutput) => {
      const account = PatientRegistrationSchema.parse({ ...values, user_type: 'patient' });
      await registerOnce(account, picture.file);
      try {
        return await authenticate({ username: account.username, password: account.password }, 'patient');
      } catch {
        throw new RegisteredButNotSignedIn();
      }
    },
    onSuccess: ({ token, user }) => {
      draft.clear();
      auth.signIn(token, user);
      void navigate(paths.patient.dashboard, { replace: true });
    },
    onError: (error) => {
      if (error instanceof RegisteredButNotSignedIn) {
        draft.clear();
        const state: LoginLocationState = { registered: true };
        void navigate(paths.patient.login, { state });
        return;
      }
      applyServerFieldErrors(form, error, FIELDS);
      if (error instanceof ApiError && error.errors.profile_pic) picture.setError(error.errors.profile_pic);
    },
  });

  const submit = form.handleSubmit((values) => registration.mutate(values));
  const busy = registration.isPending;

  return (
    <form
      noValidate
      aria-label="Patient Registration"
      onSubmit={(event) => {
        registration.reset();
        void submit(event);
      }}
    >
      <Stack gap="lg">
        <DraftNotice draft={draft} onStartOver={() => form.reset()} />
        <PersonalDetailsFields field={field} />
        <MedicalDetailsFields field={field} />
        <AccountDetailsFields field={field} />
        <ProfilePictureInput picture={picture} disabled={busy} />
        {/* Beside the button, where a phone shows it: at the top of the form it was screens above. */}
        {registration.isError && !(registration.error instanceof RegisteredButNotSignedIn) ? (
          <RegistrationError error={registration.error} />
        ) : null}
        <OfflineNotice waiting={registration.isPaused} />
        <RegistrationSubmit busy={busy} loginPath={paths.patient.login} />
      </Stack>
    </form>
  );
}
