import { NativeSelect, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { PATIENT_DISEASE_OPTIONS } from '@bloodbank/shared/constants';

type BoundField = UseFormRegisterReturn & { error: string | undefined };

export const DONOR_FIELDS = ['first_name', 'last_name', 'email', 'mobile', 'bloodgroup', 'address'] as const;
export const PATIENT_FIELDS = [...DONOR_FIELDS, 'age', 'disease', 'doctorname'] as const;
export type DonorFieldName = (typeof DONOR_FIELDS)[number];
export type PatientFieldName = (typeof PATIENT_FIELDS)[number];

function options(placeholder: string, values: readonly string[]) {
  return [
    { value: '', label: placeholder, disabled: true },
    ...values.map((value) => ({ value, label: value })),
  ];
}

/** The registration form's personal fields, with the same labels, for an admin's edit. */
export function PersonDetailsFields({ field }: { field: (name: DonorFieldName) => BoundField }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label="First Name" autoComplete="off" withAsterisk {...field('first_name')} />
        <TextInput label="Last Name" autoComplete="off" withAsterisk {...field('last_name')} />
        <TextInput label="Email" type="email" autoComplete="off" withAsterisk {...field('email')} />
        <TextInput
          label="Mobile Number"
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          description="10 digits, no spaces"
          withAsterisk
          {...field('mobile')}
        />
        <NativeSelect
          label="Blood Group"
          withAsterisk
          data={options('Select blood group', BLOOD_GROUPS)}
          {...field('bloodgroup')}
        />
      </SimpleGrid>
      <Textarea label="Address" autoComplete="off" withAsterisk minRows={2} autosize {...field('address')} />
    </>
  );
}

export function PatientMedicalFields({ field }: { field: (name: PatientFieldName) => BoundField }) {
  return (
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
        {...field('disease')}
      />
      <TextInput label="Doctor Name" autoComplete="off" withAsterisk {...field('doctorname')} />
    </SimpleGrid>
  );
}
