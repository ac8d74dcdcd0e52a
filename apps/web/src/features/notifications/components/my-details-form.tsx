import { useEffect } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { PasswordField } from '@/components/forms/password-field';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  DonorDetailsSchema,
  MY_DETAILS_FIELDS,
  MY_DETAILS_MESSAGES,
  type CurrentUser,
  type MyDetailsUpdate,
} from '@bloodbank/shared/auth';
import { DraftNotice } from '@/components/ui/draft-notice';
import { SaveErrorAlert } from '@/components/ui/error-alert';
import { useFormDraft } from '@/lib/form-draft';
import { PersonDetailFields, type PersonDetailName } from '@/components/forms/person-fields';
import {
  applyServerFieldErrors,
  fieldBinder,
  focusFirstInvalidField,
  formAlertMessage,
} from '@/lib/form-errors';
import { useUpdateMyDetails } from '../api/update-my-details';

/** Every field filled, under the registration rules; only the changed ones are sent. */
const MyDetailsSchema = DonorDetailsSchema.pick({
  first_name: true,
  last_name: true,
  email: true,
  mobile: true,
  address: true,
}).extend({ current_password: z.string().max(200).optional() });
type MyDetails = z.input<typeof MyDetailsSchema>;

/** The name the form's draft is kept under (lib/form-draft.ts). */
export const MY_DETAILS_DRAFT = 'my-details';

/**
 * A donor or patient corrects their name, e-mail, mobile or address (PATCH /api/users/me). The
 * blood group is the laboratory's to confirm and is not here.
 */
export function MyDetailsForm({
  user,
  onDone,
}: {
  user: CurrentUser;
  /** After a save (`saved`: whether anything changed) or Cancel. */
  onDone: (saved: boolean) => void;
}) {
  const form = useForm<MyDetails, unknown, z.output<typeof MyDetailsSchema>>({
    resolver: zodResolver(MyDetailsSchema),
    defaultValues: {
      first_name: user.first_name ?? '',
      last_name: user.last_name ?? '',
      email: user.email ?? '',
      mobile: user.mobile ?? '',
      address: user.address ?? '',
      current_password: '',
    },
    shouldFocusError: false,
  });
  const update = useUpdateMyDetails();
  const field = fieldBinder(form);
  // Kept while typed (this tab only, never the password): a session that ends before Save finds
  // the new details again once signed in.
  const draft = useFormDraft(form, MY_DETAILS_DRAFT, { owner: user.userId, omit: ['current_password'] });
  // Opened from Edit Details: the keyboard goes on in the form.
  useEffect(() => form.setFocus('first_name'), [form]);
  const serverFields = [...MY_DETAILS_FIELDS, 'current_password'] as const;
  // Where reset links go is the key to the account: a new address needs the current password.
  const emailChanging = useWatch({ control: form.control, name: 'email' }).trim() !== (user.email ?? '');

  const submit = form.handleSubmit((values) => {
    const changes: MyDetailsUpdate = Object.fromEntries(
      MY_DETAILS_FIELDS.filter((name) => values[name] !== (user[name] ?? '')).map((name) => [
        name,
        values[name],
      ]),
    );
    if (Object.keys(changes).length === 0) {
      draft.clear();
      onDone(false);
      return;
    }
    if (changes.email !== undefined) {
      if (!values.current_password) {
        form.setError(
          'current_password',
          { type: 'required', message: MY_DETAILS_MESSAGES.passwordNeeded },
          { shouldFocus: true },
        );
        return;
      }
      changes.current_password = values.current_password;
    }
    update.mutate(changes, {
      onSuccess: () => {
        draft.clear();
        onDone(true);
      },
      onError: (error) => applyServerFieldErrors(form, error, serverFields),
    });
  }, focusFirstInvalidField);

  const alertMessage = update.isError
    ? formAlertMessage(update.error, serverFields, 'Your details could not be saved. Please try again.')
    : null;

  return (
    <form
      noValidate
      aria-label="Edit your details"
      onSubmit={(event) => {
        update.reset();
        void submit(event);
      }}
    >
      <Stack gap="sm">
        <DraftNotice draft={draft} onStartOver={() => form.reset()} />
        {/* Without the blood group, the fields ask only for the names this form has. */}
        <PersonDetailFields
          field={(name: PersonDetailName) => field(name as Exclude<PersonDetailName, 'bloodgroup'>)}
          whose="own"
          withBloodGroup={false}
        />
        {emailChanging ? (
          <PasswordField
            label="Current Password"
            description="Needed to change your e-mail address"
            autoComplete="current-password"
            withAsterisk
            {...field('current_password')}
          />
        ) : null}
        {alertMessage ? <SaveErrorAlert message={alertMessage} /> : null}
        <Group gap="sm" justify="flex-end">
          <Button
            variant="default"
            onClick={() => {
              draft.clear();
              onDone(false);
            }}
            disabled={update.isPending}
          >
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save Details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
