import { Fieldset, NativeSelect, PasswordInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { PATIENT_DISEASE_OPTIONS } from '@bloodbank/shared/constants';

type BoundField = UseFormRegisterReturn & { error: string | undefined };

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

/** Native selects: the phone's own picker on mobile, and fully labelled for screen readers. */
function options(placeholder: string, values: readonly string[]) {
  return [
    { value: '', label: placeholder, disabled: true },
    ...values.map((value) => ({ value, label: value })),
  ];
}

export function PersonalDetailsFields({ field }: { field: (name: PersonFieldName) => BoundField }) {
  return (
    <Fieldset legend="Personal Details" radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="First Name" autoComplete="given-name" withAsterisk {...field('first_name')} />
          <TextInput label="Last Name" autoComplete="family-name" withAsterisk {...field('last_name')} />
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...field('email')} />
          <TextInput
            label="Mobile Number"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            description="10 digits, no spaces"
            withAsterisk
            {...field('mobile')}
          />
          <NativeSelect
            label="Blood Group"
            withAsterisk
            data={options('Select blood group', BLOOD_GROUPS)}
            defaultValue=""
            {...field('bloodgroup')}
          />
        </SimpleGrid>
        <Textarea
          label="Address"
          autoComplete="street-address"
          withAsterisk
          minRows={2}
          autosize
          {...field('address')}
        />
      </Stack>
    </Fieldset>
  );
}

export function MedicalDetailsFields({ field }: { field: (name: PatientFieldName) => BoundField }) {
  return (
    <Fieldset legend="Medical Details" radius="md" p={{ base: 'sm', sm: 'md' }}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Age"
          type="number"
          inputMode="numeric"
          min={1}
          max={120}
          withAsterisk
          {...field('age')}
        />
        <NativeSelect
          label="Disease"
          withAsterisk
          data={options('Select disease', PATIENT_DISEASE_OPTIONS)}
          defaultValue=""
          {...field('disease')}
        />
        <TextInput label="Doctor Name" autoComplete="off" withAsterisk {...field('doctorname')} />
      </SimpleGrid>
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
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 6 characters"
            withAsterisk
            {...field('password')}
          />
          <PasswordInput
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
