import { Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { PasswordField } from '@/components/forms/password-field';
import { MedicalDetailFields, PersonDetailFields, type BoundField } from '@/components/forms/person-fields';

/** Fields both registration forms have, by their API names. */
export type PersonFieldName =
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'mobile'
  | 'bloodgroup'
  | 'address'
  | 'username'
  | 'password'
  | 'confirmPassword';
export type PatientFieldName = 'age' | 'disease' | 'doctorname';

export function PersonalDetailsFields({ field }: { field: (name: PersonFieldName) => BoundField }) {
  return (
    <Fieldset legend="Personal Details" radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <PersonDetailFields field={field} whose="own" />
      </Stack>
    </Fieldset>
  );
}

export function MedicalDetailsFields({ field }: { field: (name: PatientFieldName) => BoundField }) {
  return (
    <Fieldset legend="Medical Details" radius="md" p={{ base: 'sm', sm: 'md' }}>
      <MedicalDetailFields field={field} whose="own" />
    </Fieldset>
  );
}

export function AccountDetailsFields({ field }: { field: (name: PersonFieldName) => BoundField }) {
  return (
    <Fieldset legend="Account Details" radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <TextInput
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          description="3 to 50 letters, digits, dots, underscores or hyphens"
          withAsterisk
          {...field('username')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <PasswordField
            label="Password"
            autoComplete="new-password"
            description="At least 6 characters"
            withAsterisk
            {...field('password')}
          />
          <PasswordField
            label="Confirm Password"
            autoComplete="new-password"
            withAsterisk
            {...field('confirmPassword')}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
