import { z } from 'zod';
import { passwordField } from './auth';
import { BLOOD_GROUPS } from './blood-groups';
import { bloodGroupField, EMAIL_PATTERN, MAX_ROW_ID } from './fields';

/**
 * Telling people (PRODUCT.md 3.8): each user's in-app notifications (the same message goes by
 * e-mail when they want e-mails), their choices, and the password reset by e-mail.
 */

export const NOTIFICATION_KINDS = [
  'booking_confirmed',
  'booking_cancelled',
  'booking_rejected',
  'appointment_reminder',
  'collection_recorded',
  'donation_released',
  'donation_follow_up',
  'bloodgroup_corrected',
  'deferral_set',
  'deferral_lifted',
  'unit_issued',
  'request_approved',
  'request_rejected',
  'can_donate_again',
  'callout',
  'password_reset',
  'units_expired',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/**
 * GET /api/notifications: the newest first, and how many are unread (of all, not only those
 * listed); `more` when older ones exist, which `?before=<the last id>` lists.
 */
export const NotificationListSchema = z.object({
  items: z.array(NotificationSchema),
  unread: z.number().int(),
  more: z.boolean(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

/** How many notifications one answer lists (the newest, or the next older ones). */
export const NOTIFICATIONS_LISTED = 50;

/** GET /api/notifications?before=: the notifications older than that one. */
export const NotificationsQuerySchema = z.object({
  before: z.coerce.number().int().positive().max(MAX_ROW_ID).optional(),
});

/** POST /api/notifications/read: some (`ids`) or every one (`all: true`). */
export const MarkReadSchema = z.union(
  [
    z.object({ ids: z.array(z.number().int().positive().max(MAX_ROW_ID)).min(1, 'Choose at least one notification').max(200) }).strict(),
    z.object({ all: z.literal(true) }).strict(),
  ],
  { error: 'Send ids (1 to 200 notification ids, as numbers) or all: true' },
);
export type MarkRead = z.infer<typeof MarkReadSchema>;

/** GET and PATCH /api/users/me/preferences. */
export const PreferencesSchema = z.object({
  /** The same messages by e-mail, to the account's address. */
  email_notifications: z.boolean(),
  /** Being told when the bank needs the donor's blood group (donors). */
  callouts: z.boolean(),
});
export type Preferences = z.infer<typeof PreferencesSchema>;
export const PreferencesPatchSchema = PreferencesSchema.partial().refine((patch) => Object.keys(patch).length > 0, 'Nothing to change');

// ---------------------------------------------------------------- password reset

export const PASSWORD_RESET_MESSAGES = {
  /** The answer to every request, whether or not the account exists. */
  requested: 'If an account matches, we have sent a link to reset its password. It works for one hour.',
  invalidToken: 'This reset link is invalid or has expired.',
  usernameOrEmail: 'Enter your username or your e-mail address',
  tooMany: 'Too many reset requests. Please try again later.',
} as const;

/** The link's token lives this long. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** POST /api/auth/password-reset: `{username}` or `{email}`. */
export const PasswordResetRequestSchema = z
  .object({
    username: z.string().trim().max(50, 'Must be at most 50 characters').optional(),
    email: z.string().trim().max(254).regex(EMAIL_PATTERN, 'Please enter a valid email address').optional(),
  })
  .refine((body) => Boolean(body.username) !== Boolean(body.email), {
    message: PASSWORD_RESET_MESSAGES.usernameOrEmail,
    path: ['username'],
  });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

/** POST /api/auth/password-reset/confirm: the token from the link and the new password (registration's rules). */
export const PasswordResetConfirmSchema = z.object({
  // Any text: an empty or altered token is a link that does not work, 400 like an unknown one
  // (PRODUCT.md 4), not a form mistake (422). The service refuses one that is too long to be ours.
  token: z.string({ error: PASSWORD_RESET_MESSAGES.invalidToken }).trim(),
  password: passwordField,
});
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;

// ---------------------------------------------------------------- low-stock call-outs

/** A donor is told of a call-out at most once in this many days. */
export const CALLOUT_QUIET_DAYS = 14;
/** A call-out "worked" for a donor who booked within this many days of being told. */
export const CALLOUT_BOOKED_WITHIN_DAYS = 7;

/** POST /api/admin/callouts. */
export const NewCalloutSchema = z.object({ bloodgroup: bloodGroupField() });
export type NewCallout = z.infer<typeof NewCalloutSchema>;

export const CalloutSchema = z.object({
  id: z.number().int(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  /** `low_stock`: raised when the group's red-cell stock fell under its threshold; `staff`: asked for. */
  reason: z.enum(['low_stock', 'staff']),
  created_at: z.string(),
  created_by: z.string().nullable(),
  notified: z.number().int(),
  booked_within_7_days: z.number().int(),
});
export type Callout = z.infer<typeof CalloutSchema>;
export const CalloutResultSchema = z.object({ id: z.number().int(), notified: z.number().int() });
