import { NativeSelect, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { PATIENT_DISEASE_OPTIONS } from '@bloodbank/shared/constants';

/**
 * The personal and medical fields of a donor or patient, with the spec's labels, shared by the
 * registration forms (a person's own details) and the admin's edit of a person (someone else's:
 * the browser must not fill in the admin's own name and address there).
 */
export type BoundField = UseFormRegisterReturn & { error: string | undefined };
export type PersonDetailName = 'first_name' | 'last_name' | 'email' | 'mobile' | 'bloodgroup' | 'address';
export type MedicalDetailName = 'age' | 'disease' | 'doctorname';

/** 'own': the browser may fill in the person's own details; 'other': someone else's, never. */
export type Whose = 'own' | 'other';

/** Native selects: the phone's own picker on mobile, and fully labelled for screen readers. */
function options(placeholder: string, values: readonly string[]) {
  return [
    { value: '', label: placeholder, disabled: true },
    ...values.map((value) => ({ value, label: value })),
  ];
}

const fill = (whose: Whose, token: string) => (whose === 'own' ? token : 'off');

export function PersonDetailFields({
  field,
  whose,
  withBloodGroup = true,
}: {
  field: (name: PersonDetailName) => BoundField;
  whose: Whose;
  /** False where the group is not the person's to change (their own profile: the laboratory confirms it). */
  withBloodGroup?: boolean;
}) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="First Name"
          autoComplete={fill(whose, 'given-name')}
          withAsterisk
          {...field('first_name')}
        />
        <TextInput
          label="Last Name"
          autoComplete={fill(whose, 'family-name')}
          withAsterisk
          {...field('last_name')}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete={fill(whose, 'email')}
          withAsterisk
          {...field('email')}
        />
        <TextInput
          label="Mobile Number"
          type="tel"
          inputMode="numeric"
          autoComplete={fill(whose, 'tel-national')}
          description="10 digits"
          withAsterisk
          {...field('mobile')}
        />
        {withBloodGroup ? (
          <NativeSelect
            label="Blood Group"
            withAsterisk
            data={options('Select blood group', BLOOD_GROUPS)}
            {...(whose === 'own' ? { defaultValue: '' } : {})}
            {...field('bloodgroup')}
          />
        ) : null}
      </SimpleGrid>
      <Textarea
        label="Address"
        autoComplete={fill(whose, 'street-address')}
        withAsterisk
        minRows={2}
        autosize
        {...field('address')}
      />
    </>
  );
}

export function MedicalDetailFields({
  field,
  whose,
}: {
  field: (name: MedicalDetailName) => BoundField;
  whose: Whose;
}) {
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
        {...(whose === 'own' ? { defaultValue: '' } : {})}
        {...field('disease')}
      />
      <TextInput label="Doctor Name" autoComplete="off" withAsterisk {...field('doctorname')} />
    </SimpleGrid>
  );
}
