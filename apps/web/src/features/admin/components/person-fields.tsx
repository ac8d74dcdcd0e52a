import { MedicalDetailFields, PersonDetailFields, type BoundField } from '@/components/forms/person-fields';

export const DONOR_FIELDS = ['first_name', 'last_name', 'email', 'mobile', 'bloodgroup', 'address'] as const;
export const PATIENT_FIELDS = [...DONOR_FIELDS, 'age', 'disease', 'doctorname'] as const;
export type DonorFieldName = (typeof DONOR_FIELDS)[number];
export type PatientFieldName = (typeof PATIENT_FIELDS)[number];

/** The registration form's personal fields, with the same labels, for an admin's edit of someone else. */
export function PersonDetailsFields({ field }: { field: (name: DonorFieldName) => BoundField }) {
  return <PersonDetailFields field={field} whose="other" />;
}

export function PatientMedicalFields({ field }: { field: (name: PatientFieldName) => BoundField }) {
  return <MedicalDetailFields field={field} whose="other" />;
}
