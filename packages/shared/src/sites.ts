import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { isoDateField, requiredInteger, requiredName, requiredText } from './fields';

/**
 * Donation sites and appointments (PRODUCT.md 3.6). A site opens on some weekdays between two
 * times; its day is cut into slots of `slot_minutes`, each taking `capacity` donors. A slot is named
 * by its start, `HH:MM` in the blood bank's time zone, and lies wholly inside the opening hours: a
 * site open 08:00-16:00 with 15-minute slots offers 08:00 to 15:45.
 */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const SITE_DEFAULTS = { slot_minutes: 15, capacity: 2 } as const;
export const SLOT_MINUTES_RANGE = { min: 5, max: 240 } as const;
export const CAPACITY_RANGE = { min: 1, max: 50 } as const;
/** At most this many closed dates per site (a year of them, and some). */
export const MAX_CLOSED_DATES = 400;

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const TIME_MESSAGE = 'Please enter a time as HH:MM (24-hour)';

/** `HH:MM`, 00:00 to 23:59. */
export function timeField(requiredMessage: string) {
  return z.string({ error: requiredMessage }).trim().min(1, requiredMessage).regex(TIME_PATTERN, TIME_MESSAGE);
}

/** Minutes since midnight of an `HH:MM` text. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** `HH:MM` of minutes since midnight. */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export const OpeningHoursSchema = z
  .object({ open: timeField('Opening time is required'), close: timeField('Closing time is required') })
  .refine((hours) => hours.open < hours.close, { message: 'Closing time must be after opening time', path: ['close'] });
export type OpeningHours = z.infer<typeof OpeningHoursSchema>;

/** Each weekday's hours, or null when the site is closed that day. */
export const WeeklyHoursSchema = z.object({
  monday: OpeningHoursSchema.nullable(),
  tuesday: OpeningHoursSchema.nullable(),
  wednesday: OpeningHoursSchema.nullable(),
  thursday: OpeningHoursSchema.nullable(),
  friday: OpeningHoursSchema.nullable(),
  saturday: OpeningHoursSchema.nullable(),
  sunday: OpeningHoursSchema.nullable(),
});
export type WeeklyHours = z.infer<typeof WeeklyHoursSchema>;

const slotMinutesField = requiredInteger('Slot length is required').pipe(
  z
    .number()
    .min(SLOT_MINUTES_RANGE.min, `Slots last at least ${SLOT_MINUTES_RANGE.min} minutes`)
    .max(SLOT_MINUTES_RANGE.max, `Slots last at most ${SLOT_MINUTES_RANGE.max} minutes`),
);
const capacityField = requiredInteger('Capacity is required').pipe(
  z
    .number()
    .min(CAPACITY_RANGE.min, `At least ${CAPACITY_RANGE.min} donor per slot`)
    .max(CAPACITY_RANGE.max, `At most ${CAPACITY_RANGE.max} donors per slot`),
);
const closedDatesField = z
  .array(isoDateField('Please enter a valid date (YYYY-MM-DD)'))
  .max(MAX_CLOSED_DATES, `At most ${MAX_CLOSED_DATES} closed dates`)
  // Stored sorted and once each, whatever order they were typed in.
  .transform((dates) => [...new Set(dates)].sort());

/** The days a site opens for less than one slot: it would take no booking on them. */
export function daysShorterThanASlot(hours: WeeklyHours, slotMinutes: number): Weekday[] {
  return WEEKDAYS.filter((day) => {
    const open = hours[day];
    return open !== null && minutesOf(open.close) - minutesOf(open.open) < slotMinutes;
  });
}

export const shorterThanASlotMessage = (slotMinutes: number) =>
  `Open for at least one slot (${slotMinutes} minutes)`;

/** What staff enter to create a site (POST /api/admin/sites). */
export const SiteFormSchema = z
  .object({
    name: requiredName('Site name is required', 100),
    address: requiredText('Address is required', 200),
    hours: WeeklyHoursSchema,
    slot_minutes: slotMinutesField.default(SITE_DEFAULTS.slot_minutes),
    capacity: capacityField.default(SITE_DEFAULTS.capacity),
    closed_dates: closedDatesField.default([]),
    active: z.boolean().default(true),
  })
  .refine((site) => WEEKDAYS.some((day) => site.hours[day] !== null), {
    message: 'Open the site on at least one day of the week',
    path: ['hours'],
  })
  .superRefine((site, context) => {
    for (const day of daysShorterThanASlot(site.hours, site.slot_minutes)) {
      context.addIssue({ code: 'custom', message: shorterThanASlotMessage(site.slot_minutes), path: ['hours', day, 'close'] });
    }
  });
export type SiteForm = z.input<typeof SiteFormSchema>;
export type SiteInput = z.output<typeof SiteFormSchema>;

/** PATCH /api/admin/sites/:id: any of the fields; deactivating is `{active:false}`. */
export const SitePatchSchema = z
  .object({
    name: requiredName('Site name is required', 100),
    address: requiredText('Address is required', 200),
    hours: WeeklyHoursSchema.refine((hours) => WEEKDAYS.some((day) => hours[day] !== null), 'Open the site on at least one day of the week'),
    slot_minutes: slotMinutesField,
    capacity: capacityField,
    closed_dates: closedDatesField,
    active: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change');
export type SitePatch = z.output<typeof SitePatchSchema>;

/** A site as staff see it. */
export const SiteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  hours: WeeklyHoursSchema,
  slot_minutes: z.number().int(),
  capacity: z.number().int(),
  closed_dates: z.array(z.string()),
  active: z.boolean(),
});
export type Site = z.infer<typeof SiteSchema>;

/** PATCH /api/admin/sites/:id: the site, and how many bookings at times it no longer keeps were cancelled. */
export const SiteUpdateSchema = SiteSchema.extend({ cancelled_bookings: z.number().int() });
export type SiteUpdate = z.infer<typeof SiteUpdateSchema>;

/** The same opening hours on every day of the week. */
export function sameHoursEveryDay(hours: OpeningHours): WeeklyHours {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, hours])) as WeeklyHours;
}

/**
 * Whether two calendars of a site differ: its weekly hours, or its closed dates in any order. Only
 * such an edit cancels the bookings at times the site no longer keeps (decision 0017); the site
 * form asks which first (decision 0025), the server decides when it saves.
 */
export function calendarsDiffer(
  before: { hours: WeeklyHours; closed_dates: readonly string[] },
  after: { hours: WeeklyHours; closed_dates: readonly string[] },
): boolean {
  const sorted = (dates: readonly string[]) => JSON.stringify([...dates].sort());
  return JSON.stringify(before.hours) !== JSON.stringify(after.hours) || sorted(before.closed_dates) !== sorted(after.closed_dates);
}

/**
 * POST /api/admin/sites/:id/affected-bookings: the hours and closed dates an edit would give the
 * site, to learn before saving which bookings it would cancel (decision 0017).
 */
export const SiteCalendarChangeSchema = z.object({ hours: WeeklyHoursSchema, closed_dates: closedDatesField });
export type SiteCalendarChange = z.input<typeof SiteCalendarChangeSchema>;

/** A booking that a calendar change would cancel: when, and whose (staff may want to call them). */
export const AffectedBookingSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  slot: z.string(),
  donor_name: z.string(),
});
export type AffectedBooking = z.infer<typeof AffectedBookingSchema>;
export const AffectedBookingsSchema = z.object({ bookings: z.array(AffectedBookingSchema) });
export type AffectedBookings = z.infer<typeof AffectedBookingsSchema>;

/** GET /api/sites: the active sites a donor may book at (closed dates included, so a calendar can grey them out). */
export const PublicSiteSchema = SiteSchema.omit({ capacity: true, active: true });
export type PublicSite = z.infer<typeof PublicSiteSchema>;

export const SlotsQuerySchema = z.object({ date: isoDateField('Date is required') });

/** One bookable start time and the places left in it (0 when full). */
export const SlotSchema = z.object({ time: z.string(), available: z.number().int() });
export type Slot = z.infer<typeof SlotSchema>;

/** Where and when a booking is, as its donor sees it. */
export const AppointmentSchema = z.object({
  site_id: z.number().int(),
  site_name: z.string(),
  address: z.string(),
  /** `HH:MM`, the slot's start in the blood bank's time zone. */
  time: z.string(),
  /** `HH:MM`, the slot's end. */
  ends: z.string(),
});
export type Appointment = z.infer<typeof AppointmentSchema>;

// ---------------------------------------------------------------- the day list

/** Where a booking of the day stands, as the site's staff see it. */
export const APPOINTMENT_STATES = ['booked', 'checked_in', 'collected', 'deferred', 'no_show'] as const;
export type AppointmentState = (typeof APPOINTMENT_STATES)[number];
export const APPOINTMENT_STATE_LABELS: Record<AppointmentState, string> = {
  booked: 'Booked',
  checked_in: 'Checked in',
  collected: 'Collected',
  deferred: 'Deferred',
  no_show: 'No-show',
};

export const DayAppointmentSchema = z.object({
  donation_id: z.number().int(),
  time: z.string(),
  donor_id: z.number().int(),
  donor_name: z.string(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  units: z.number().int(),
  state: z.enum(APPOINTMENT_STATES),
  /** Booked for today, not checked in, and its slot is over by the bank's clock: the donor is late or will not come. */
  late: z.boolean(),
  checked_in_at: z.string().nullable(),
  /** The health condition the donor declared when booking. */
  disease: z.string(),
  /** The last donation the donor declared when booking (perhaps elsewhere), YYYY-MM-DD, or null. */
  lastDonation: z.string().nullable(),
});
export type DayAppointment = z.infer<typeof DayAppointmentSchema>;

/** GET /api/admin/sites/:id/day?date=: who comes when (cancelled and rejected bookings freed their place and are left out). */
export const SiteDaySchema = z.object({
  site: SiteSchema,
  date: z.string(),
  /** Whether the site opens that day (its weekday's hours, not a closed date). */
  open: z.boolean(),
  hours: OpeningHoursSchema.nullable(),
  counts: z.object({
    booked: z.number().int(),
    checked_in: z.number().int(),
    collected: z.number().int(),
    deferred: z.number().int(),
    no_show: z.number().int(),
  }),
  appointments: z.array(DayAppointmentSchema),
});
export type SiteDay = z.infer<typeof SiteDaySchema>;

/** Field messages of a booking at a site, and of the site form (PRODUCT.md 3.6). */
export const SITE_MESSAGES = {
  /** 409 on `name`: another site (active or not) has this name, case and spaces aside. */
  nameTaken: 'A site with this name already exists.',
  siteRequired: 'Please choose a donation site',
  slotRequired: 'Please choose a time slot',
  siteUnavailable: 'This site is not taking bookings. Please choose another site.',
  slotClosed: 'This time is not open at this site on that date. Please choose another time.',
  slotFull: 'This time slot is full. Please choose another time.',
  checkInDay: (date: string) => `This booking is for ${date} and can be checked in on that day.`,
  checkedInAlready: 'This donor has already been checked in.',
  /** 409 to the donor: staff are expecting them at the site, so the booking is theirs to change now. */
  checkedInBooking: (action: 'moved' | 'cancelled') =>
    `You are checked in for this booking, so it can no longer be ${action} here. Please speak to the staff at the site.`,
  /** 409 on check-in: the donor moved the booking to another time or site meanwhile. */
  bookingMoved: 'The donor has just moved this booking to another time or site. Please look at the day list again.',
} as const;
