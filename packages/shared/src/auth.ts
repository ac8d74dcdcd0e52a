import { z } from 'zod';
import { PASSWORD_LENGTH, PATIENT_AGE, PATIENT_DISEASE_OPTIONS, USERNAME_LENGTH } from './constants';
import {
  bloodGroupField,
  EMAIL_PATTERN,
  missingOr,
  MOBILE_PATTERN,
  optionField,
  requiredInteger,
  requiredName,
  requiredPersonName,
  requiredText,
  USERNAME_PATTERN,
} from './fields';
import { BLOOD_GROUPS } from './blood-groups';

import { USER_TYPES } from './roles';

export { ROLES, roleOf, USER_TYPES, userTypeOf, type Role, type UserType } from './roles';

// ---------------------------------------------------------------- login (spec section 5)

export const LoginFormSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(200),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const TokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user_type: z.enum(USER_TYPES),
  user_id: z.number().int(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

// ---------------------------------------------------------------- registration

export const usernameField = requiredText('Username is required', USERNAME_LENGTH.max)
  .min(USERNAME_LENGTH.min, `Username must be at least ${USERNAME_LENGTH.min} characters`)
  .regex(USERNAME_PATTERN, 'Username may contain only letters, digits, dots, underscores and hyphens');

export const passwordField = z
  .string({ error: missingOr('Password is required') })
  .min(1, 'Password is required')
  .min(PASSWORD_LENGTH.min, `Password must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `Password must be at most ${PASSWORD_LENGTH.max} characters`);

export const emailField = requiredText('Email is required', 254).regex(
  EMAIL_PATTERN,
  'Invalid email address',
);

/**
 * Ten digits (spec): an Indian mobile number. Phones and people write "98765 43210", "98765-43210",
 * "+91 98765 43210", "098765 43210" or "९८७६५४३२१०": digits of Indian scripts are read as 0-9, the
 * spaces, hyphens, dots and brackets between them dropped, then the country code (+91, 0091) or the
 * trunk 0 in front of ten digits, or a bare 91 in front of a mobile number (from 6), and only the
 * ten digits are kept.
 */
export function normalizeMobile(mobile: string): string {
  return asciiDigits(mobile)
    .replace(/[\s().-]/g, '')
    .replace(/^(?:\+91|0091|0)(?=\d{10}$)|^91(?=[6-9]\d{9}$)/, '');
}

/** The code point of zero in each Indian script a phone's keyboard may type digits in (०-९, ০-৯, ...). */
const INDIAN_ZEROS = [0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66];

/** The text with digits of Indian scripts written as 0-9. */
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const codePoint = digit.codePointAt(0)!;
    const zero = INDIAN_ZEROS.find((start) => codePoint >= start && codePoint <= start + 9);
    return zero === undefined ? digit : String(codePoint - zero);
  });
}

export const mobileField = requiredText('Mobile number is required', 20)
  .transform(normalizeMobile)
  .pipe(z.string().regex(MOBILE_PATTERN, 'Please enter a valid 10-digit mobile number'));

export const ageField = requiredInteger('Age is required').pipe(
  z
    .number()
    .min(PATIENT_AGE.min, 'Age must be greater than 0')
    .max(PATIENT_AGE.max, 'Age must be less than 120'),
);

/** The personal fields an admin may edit; registration adds username and password. */
export const DonorDetailsSchema = z.object({
  first_name: requiredPersonName('First name is required', 100),
  last_name: requiredPersonName('Last name is required', 100),
  email: emailField,
  bloodgroup: bloodGroupField(),
  address: requiredText('Address is required', 500),
  mobile: mobileField,
});
export type DonorDetails = z.infer<typeof DonorDetailsSchema>;

export const PatientDetailsSchema = DonorDetailsSchema.extend({
  disease: optionField(PATIENT_DISEASE_OPTIONS, 'Disease is required'),
  age: ageField,
  doctorname: requiredName('Doctor name is required', 100),
});
export type PatientDetails = z.infer<typeof PatientDetailsSchema>;

const credentials = { username: usernameField, password: passwordField };

/** API body of POST /api/auth/register (JSON or multipart; the picture travels as `profile_pic`). */
export const DonorRegistrationSchema = DonorDetailsSchema.extend({
  user_type: z.literal('donor'),
  ...credentials,
});
export const PatientRegistrationSchema = PatientDetailsSchema.extend({
  user_type: z.literal('patient'),
  ...credentials,
});
export const RegistrationSchema = z.discriminatedUnion('user_type', [
  DonorRegistrationSchema,
  PatientRegistrationSchema,
]);
export type Registration = z.infer<typeof RegistrationSchema>;

/**
 * The confirm-password rule of every form that sets a password (registration, a reset link, the
 * profile's change): `confirm` must repeat `password`, checked only once both have something in
 * them. The fields are named as the form's API body names them.
 */
export function withPasswordConfirmation<
  T extends z.ZodObject,
  P extends string = 'password',
  C extends string = 'confirmPassword',
>(
  schema: T,
  fields = { password: 'password', confirm: 'confirmPassword' } as { password: P; confirm: C },
): z.ZodObject<T['shape'] & Record<C, z.ZodString>> {
  const confirmation = z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password');
  // Typed by hand: on a generic `T`, zod's own `extend` type loses the shape's fields.
  return schema
    .extend({ [fields.confirm]: confirmation } as Record<C, typeof confirmation>)
    .refine((form) => (form as Record<string, unknown>)[fields.password] === (form as Record<string, unknown>)[fields.confirm], {
      path: [fields.confirm],
      message: 'Passwords do not match',
      when: (payload) => {
        const value = payload.value as Record<string, unknown>;
        return typeof value[fields.password] === 'string' && typeof value[fields.confirm] === 'string' && value[fields.confirm] !== '';
      },
    }) as unknown as z.ZodObject<T['shape'] & Record<C, z.ZodString>>;
}

/** The browser forms: the API body without user_type, plus confirmPassword (never sent). */
export const DonorRegistrationFormSchema = withPasswordConfirmation(
  DonorRegistrationSchema.omit({ user_type: true }),
);
export type DonorRegistrationForm = z.input<typeof DonorRegistrationFormSchema>;
export const PatientRegistrationFormSchema = withPasswordConfirmation(
  PatientRegistrationSchema.omit({ user_type: true }),
);
export type PatientRegistrationForm = z.input<typeof PatientRegistrationFormSchema>;

export const RegistrationResponseSchema = z.object({
  user_id: z.number().int(),
  user_type: z.enum(['donor', 'patient']),
  username: z.string(),
});
export type RegistrationResponse = z.infer<typeof RegistrationResponseSchema>;

// ---------------------------------------------------------------- own details

/**
 * PATCH /api/users/me: a donor or patient corrects their own contact details, under the
 * registration rules. The blood group is the laboratory's to confirm and the medical fields are
 * staff's, so they are not here; unknown fields are ignored. At least one field.
 */
export const MyDetailsUpdateSchema = DonorDetailsSchema.pick({
  first_name: true,
  last_name: true,
  email: true,
  mobile: true,
  address: true,
})
  .partial()
  .extend({
    /** Needed to change the e-mail address: where reset links go is the key to the account. */
    current_password: z.string().max(200).optional(),
  })
  .refine(
    (changes) => Object.keys(changes).some((field) => field !== 'current_password'),
    'Change at least one field',
  );
export type MyDetailsUpdate = z.infer<typeof MyDetailsUpdateSchema>;
export const MY_DETAILS_FIELDS = ['first_name', 'last_name', 'email', 'mobile', 'address'] as const;
export const MY_DETAILS_MESSAGES = {
  passwordNeeded: 'Enter your current password to change your e-mail address',
  passwordWrong: 'Your current password is not correct',
} as const;

// ---------------------------------------------------------------- sessions

/** A session renewed by use (POST /api/auth/renew) still ends this many days after its sign-in. */
export const SESSION_MAX_DAYS = 7;
export const SESSION_MESSAGES = {
  tooOldToRenew: `This session started more than ${SESSION_MAX_DAYS} days ago and cannot be renewed. Please log in again when it ends.`,
} as const;

// ---------------------------------------------------------------- own password

export const PASSWORD_CHANGE_MESSAGES = {
  currentNeeded: 'Enter your current password',
  currentWrong: MY_DETAILS_MESSAGES.passwordWrong,
  sameAsCurrent: 'Choose a password different from your current one',
} as const;

/**
 * POST /api/users/me/password: the current password (a stolen session alone cannot change it) and
 * the new one, under registration's rules.
 */
export const PasswordChangeSchema = z
  .object({
    current_password: z
      .string({ error: missingOr(PASSWORD_CHANGE_MESSAGES.currentNeeded) })
      .min(1, PASSWORD_CHANGE_MESSAGES.currentNeeded)
      .max(1024),
    new_password: passwordField,
  })
  .refine((body) => body.new_password !== body.current_password, {
    path: ['new_password'],
    message: PASSWORD_CHANGE_MESSAGES.sameAsCurrent,
  });
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

// ---------------------------------------------------------------- current user

export const CurrentUserSchema = z.object({
  userId: z.number().int(),
  userType: z.enum(USER_TYPES),
  username: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  bloodgroup: z.enum(BLOOD_GROUPS).nullable(),
  address: z.string().nullable(),
  mobile: z.string().nullable(),
  disease: z.string().nullable(),
  age: z.number().int().nullable(),
  doctorname: z.string().nullable(),
  has_profile_pic: z.boolean(),
  created_at: z.string(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;
