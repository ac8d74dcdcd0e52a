import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { BOOKING_DAYS_AHEAD, DONATION_UNITS, DONOR_HEALTH_OPTIONS } from './constants';
import { addDays } from './dates';
import { DonorDeferralSchema } from './donation-lifecycle';
import { isoDateField, MAX_ROW_ID, optionField, requiredInteger, type TodayProvider } from './fields';
import { AppointmentSchema, SITE_MESSAGES, timeField } from './sites';

/**
 * The lifecycle of a donation (PRODUCT.md 3.2): pending (booked) -> cancelled (by the donor) |
 * rejected (by staff) | deferred (failed screening) | collected (units in quarantine) -> released
 * (all tests negative) | discarded (a reactive test).
 */
export const DONATION_STATUSES = [
  'pending',
  'cancelled',
  'rejected',
  'deferred',
  'collected',
  'released',
  'discarded',
  // The booked day passed without a collection (marked by the daily run; PRODUCT.md 3.6).
  'no_show',
] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];
/** The donor gave blood: these count for the interval, the game and the "Approved" counter. */
export const COLLECTED_DONATION_STATUSES = [
  'collected',
  'released',
  'discarded',
] as const satisfies readonly DonationStatus[];

/**
 * A donation's status as its donor reads it (GET /api/donations/mine, the summary's latest booking):
 * `discarded` happens only after a reactive test, which is confidential (PRODUCT.md 3.2), so the
 * donor reads `follow_up`, the state "Your donation needs follow-up" (decision 0021).
 */
export const DONOR_DONATION_STATUSES = [
  ...DONATION_STATUSES.filter(
    (status): status is Exclude<DonationStatus, 'discarded'> => status !== 'discarded',
  ),
  'follow_up',
] as const;
export type DonorDonationStatus = Exclude<DonationStatus, 'discarded'> | 'follow_up';
/** The donor's donations that gave blood (COLLECTED_DONATION_STATUSES in the donor's words). */
export const DONOR_COLLECTED_STATUSES = [
  'collected',
  'released',
  'follow_up',
] as const satisfies readonly DonorDonationStatus[];

/**
 * The Donate Blood form (spec section 5). The blood group is the donor's own and is never read
 * from the body. `today` decides what "in the past" means.
 */
/** A booking's day: from today to BOOKING_DAYS_AHEAD days ahead (booking and moving a booking). */
function bookingDateField(today: TodayProvider) {
  return isoDateField('Donation date is required')
    .refine((date) => date >= today(), 'Date cannot be in the past')
    .refine(
      (date) => date <= addDays(today(), BOOKING_DAYS_AHEAD),
      `Please choose a date within the next ${BOOKING_DAYS_AHEAD} days`,
    );
}

/** A booking's site and slot (PRODUCT.md 3.6): required by the server when sites exist, ignored when none do. */
const siteIdField = z
  .number({ error: SITE_MESSAGES.siteRequired })
  .int(SITE_MESSAGES.siteRequired)
  .positive(SITE_MESSAGES.siteRequired)
  .max(MAX_ROW_ID, SITE_MESSAGES.siteRequired)
  .nullable()
  .optional();
const slotField = timeField(SITE_MESSAGES.slotRequired).nullable().optional();

export function donationFormSchema(today: TodayProvider) {
  return z.object({
    // Left out of the body, it is one unit (PRODUCT.md 3.2); sent blank, it is missing.
    unit: requiredInteger('Number of units is required')
      .pipe(
        z
          .number()
          .min(DONATION_UNITS.min, 'Minimum 1 unit is required')
          .max(DONATION_UNITS.max, 'Maximum 2 units can be donated at once'),
      )
      .default(DONATION_UNITS.min),
    date: bookingDateField(today),
    disease: optionField(DONOR_HEALTH_OPTIONS, 'This field is required'),
    lastDonation: z
      .string({ error: 'Please enter a valid date (YYYY-MM-DD)' })
      .trim()
      .nullable()
      .optional()
      .transform((value) => (value ? value : null))
      .pipe(isoDateField('Please enter a valid date (YYYY-MM-DD)').nullable())
      .refine((date) => date === null || date <= today(), 'Last donation date cannot be in the future'),
    confirmation: z.literal(true, { error: 'You must confirm this statement' }),
    site_id: siteIdField,
    slot: slotField,
  });
}

/** POST /donations/:id/reschedule: the booking's new day, and its site and slot when sites exist. */
export function rescheduleFormSchema(today: TodayProvider) {
  return z.object({ date: bookingDateField(today), site_id: siteIdField, slot: slotField });
}
export type RescheduleForm = z.input<ReturnType<typeof rescheduleFormSchema>>;
export type RescheduleInput = z.output<ReturnType<typeof rescheduleFormSchema>>;
export type DonationForm = z.input<ReturnType<typeof donationFormSchema>>;
export type DonationInput = z.output<ReturnType<typeof donationFormSchema>>;

export const DonationSchema = z.object({
  id: z.number().int(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  unit: z.number().int(),
  date: z.string(),
  disease: z.string(),
  lastDonation: z.string().nullable(),
  status: z.enum(DONOR_DONATION_STATUSES),
  /** Staff's reason for a rejection, shown to the donor; null otherwise (screening and test reasons are confidential). */
  rejection_reason: z.string().nullable(),
  created_at: z.string(),
  /** When it left `pending` (cancelled, rejected, deferred or collected). */
  decided_at: z.string().nullable(),
  /** When the blood was collected (or the screening failed); null before. */
  collected_on: z.string().nullable(),
  /** The site and time slot when booked at a site; null for a booking by date alone. */
  appointment: AppointmentSchema.nullable(),
});
export type Donation = z.infer<typeof DonationSchema>;

export const ActivitySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  message: z.string(),
  created_at: z.string(),
});
export type Activity = z.infer<typeof ActivitySchema>;

export const DonorSummarySchema = z.object({
  /** Every booking except cancelled ones. */
  made: z.number().int(),
  pending: z.number().int(),
  /** Bookings the donor gave blood for: collected, released or discarded. */
  approved: z.number().int(),
  /** Rejected by staff, or deferred at screening. */
  rejected: z.number().int(),
  /**
   * The first day the donor may donate: today when eligible now; the later of the interval date and
   * the deferral's end; null while a donation is booked or when permanently deferred.
   */
  next_eligible_date: z.string().nullable(),
  /** The active deferral, without its (confidential) reason. */
  deferred: DonorDeferralSchema.nullable(),
  /** The latest booking, so the dashboard can say where it stands; null when there is none. */
  latest_donation: DonationSchema.nullable(),
  /** Why the donor cannot donate today, in the words the server would answer a submit with. */
  not_eligible_reason: z.string().nullable(),
  activities: z.array(ActivitySchema),
});
export type DonorSummary = z.infer<typeof DonorSummarySchema>;
