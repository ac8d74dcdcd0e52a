import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { DonorDetailsSchema, PatientDetailsSchema } from './auth';
import { BloodRequestSchema, REQUEST_STATUSES } from './blood-request';
import { DONATION_STATUSES, DonationSchema } from './donation';
import { DonorDeferralSchema, ScreeningSchema, TestResultsRecordSchema } from './donation-lifecycle';
import {
  COMPONENT_WORDS,
  ComponentCountsSchema,
  COMPONENTS,
  componentField,
  DEFAULT_COMPONENT,
  SEPARATED_COMPONENTS,
  type Component,
} from './components';
import { bloodGroupField, isoDateField, MAX_ROW_ID, requiredText, type TodayProvider } from './fields';

// ---------------------------------------------------------------- paging

export const PAGE_SIZE = { default: 20, max: 100 } as const;

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, `pageSize must be between 1 and ${PAGE_SIZE.max}`)
    .max(PAGE_SIZE.max, `pageSize must be between 1 and ${PAGE_SIZE.max}`)
    .default(PAGE_SIZE.default),
});

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
export type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

// ---------------------------------------------------------------- dashboard

export const InventoryRowSchema = z.object({
  bloodgroup: z.enum(BLOOD_GROUPS),
  /** Red-cell units (red cells + whole blood) available and not expired today: "units of blood". */
  units: z.number().int(),
  /** The stock per component (available, not expired today). */
  components: ComponentCountsSchema,
  /** Of those, units that expire within the next 7 days. */
  expiring_soon: z.number().int(),
  /** True when the red-cell units are under the low-stock threshold. */
  low: z.boolean(),
  /**
   * True when they are under SUPPLY_CRITICAL_UNITS: what the home page calls Critical (PRODUCT.md
   * 3.8), so staff read the same word for the same shelf.
   */
  critical: z.boolean(),
  /** Units still marked available but past their expiry date: not stock, waiting to be discarded. */
  expired: z.number().int(),
  /** Quarantined units awaiting their donation's test results. Never stock. */
  in_testing: z.number().int(),
  /** Quarantined units on a lookback hold, until staff release or discard them. Never stock. */
  on_hold: z.number().int(),
});
export type InventoryRow = z.infer<typeof InventoryRowSchema>;

export const WeeklyCountSchema = z.object({
  /** Monday of the week, YYYY-MM-DD. */
  week_start: z.string(),
  donations: z.number().int(),
  requests: z.number().int(),
});
export type WeeklyCount = z.infer<typeof WeeklyCountSchema>;

export const ExpiringUnitSchema = z.object({
  id: z.number().int(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  component: z.enum(COMPONENTS),
  expires_on: z.string(),
});

export const AdminDashboardSchema = z.object({
  totalDonors: z.number().int(),
  totalPatients: z.number().int(),
  /** Every available, unexpired unit of every component: the sum of every component column. */
  totalBloodUnits: z.number().int(),
  /** Booked donations not yet collected, rejected or cancelled (any date). */
  pendingDonations: z.number().int(),
  /** What awaits staff today: bookings due (booked for today or earlier) ... */
  bookingsDue: z.number().int(),
  /** ... and collected donations awaiting their test results. */
  awaitingResults: z.number().int(),
  pendingRequests: z.number().int(),
  lowStockThreshold: z.number().int(),
  inventory: z.array(InventoryRowSchema),
  weekly: z.array(WeeklyCountSchema),
  expiringUnits: z.array(ExpiringUnitSchema),
  /** The shelf life of each component this bank is configured with, in days after collection. */
  shelfLifeDays: ComponentCountsSchema,
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;

// ---------------------------------------------------------------- people

export const PEOPLE_SORTS = ['name', 'username', 'created_at', 'bloodgroup'] as const;

export const PEOPLE_STATUSES = ['active', 'deactivated'] as const;
export const PeopleQuerySchema = PageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  /** Only the accounts that can sign in, or only the deactivated ones; both without it. */
  status: z.enum(PEOPLE_STATUSES).optional(),
  sort: z.enum(PEOPLE_SORTS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PeopleQuery = z.infer<typeof PeopleQuerySchema>;

const personFields = {
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  address: z.string(),
  mobile: z.string(),
  is_active: z.boolean(),
  deactivated_at: z.string().nullable(),
  created_at: z.string(),
};

export const AdminDonorSchema = z.object({
  ...personFields,
  /** The donations they gave blood for (collected, released, discarded): not their bookings. */
  donations: z.number().int(),
  /** The deferral in force today (the longest; never its reason), or null: staff see it in the list. */
  deferred: DonorDeferralSchema.nullable(),
});
export type AdminDonor = z.infer<typeof AdminDonorSchema>;

export const AdminPatientSchema = z.object({
  ...personFields,
  disease: z.string(),
  age: z.number().int(),
  doctorname: z.string(),
  requests: z.number().int(),
});
export type AdminPatient = z.infer<typeof AdminPatientSchema>;

const atLeastOneField = (changes: object) => Object.keys(changes).length > 0;
const NOTHING_TO_CHANGE = 'Change at least one field';

/** PATCH bodies: any subset of the registration fields, validated with the registration rules. */
export const AdminDonorUpdateSchema = DonorDetailsSchema.partial().refine(atLeastOneField, NOTHING_TO_CHANGE);
export type AdminDonorUpdate = z.infer<typeof AdminDonorUpdateSchema>;
export const AdminPatientUpdateSchema = PatientDetailsSchema.partial().refine(
  atLeastOneField,
  NOTHING_TO_CHANGE,
);
export type AdminPatientUpdate = z.infer<typeof AdminPatientUpdateSchema>;

// ---------------------------------------------------------------- units

/** quarantined: not stock (in testing, or on a lookback hold); processed: made into components (issue 21). */
export const UNIT_STATUSES = ['quarantined', 'available', 'issued', 'discarded', 'processed'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];
/** Why a quarantined unit is held: its donation awaits test results, or a later reactive test of its donor. */
export const HOLD_REASONS = ['testing', 'lookback'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
/** Filters include "expired": available on paper, but past its expiry date. */
export const UNIT_FILTERS = [...UNIT_STATUSES, 'expired'] as const;

export const BloodUnitSchema = z.object({
  id: z.number().int(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  component: z.enum(COMPONENTS),
  /** The whole-blood unit it was separated from. */
  parent_unit_id: z.number().int().nullable(),
  source: z.enum(['donation', 'manual']),
  donation_id: z.number().int().nullable(),
  collected_on: z.string(),
  expires_on: z.string(),
  status: z.enum(UNIT_STATUSES),
  hold_reason: z.enum(HOLD_REASONS).nullable(),
  expired: z.boolean(),
  request_id: z.number().int().nullable(),
  issued_at: z.string().nullable(),
  discarded_at: z.string().nullable(),
  discard_reason: z.string().nullable(),
  created_at: z.string(),
  /**
   * Who gave it (Manage Blood's lists only; null when received by hand): a lookback hold is about
   * that donor, and staff look them up to clear it.
   */
  donor: z.object({ id: z.number().int(), name: z.string(), username: z.string() }).nullable().optional(),
});
export type BloodUnit = z.infer<typeof BloodUnitSchema>;

export const UnitsQuerySchema = PageQuerySchema.extend({
  bloodgroup: z.enum(BLOOD_GROUPS).optional(),
  component: z.enum(COMPONENTS).optional(),
  status: z.enum(UNIT_FILTERS).optional(),
  /** A bag's number, as on its label: that unit and the components separated from it. */
  unit: z
    .string({ error: 'Enter a unit number' })
    .regex(/^[1-9]\d{0,9}$/, 'Enter a unit number')
    .transform(Number)
    .pipe(z.number().max(MAX_ROW_ID, 'Enter a unit number'))
    .optional(),
});
export type UnitsQuery = z.infer<typeof UnitsQuerySchema>;

export const RECEIVE_UNITS_MAX = 100;

export function receiveUnitsSchema(today: TodayProvider) {
  return z.object({
    bloodgroup: bloodGroupField(),
    component: componentField().default(DEFAULT_COMPONENT),
    count: z.coerce
      .number({ error: 'Number of units is required' })
      .int('Please enter a whole number')
      .min(1, 'Minimum 1 unit is required')
      .max(RECEIVE_UNITS_MAX, `At most ${RECEIVE_UNITS_MAX} units can be received at once`),
    collected_on: isoDateField('Collection date is required').refine(
      (date) => date <= today(),
      'Collection date cannot be in the future',
    ),
  });
}

/** POST /admin/units/:id/process: what to separate a whole-blood unit into. */
export const ProcessUnitSchema = z.object({
  components: z
    .array(z.enum(SEPARATED_COMPONENTS, { error: 'Choose red cells, plasma or platelets' }))
    .min(1, 'Choose at least one component')
    .max(3)
    .refine((list) => new Set(list).size === list.length, 'Choose each component once'),
});
export type ProcessUnitInput = z.infer<typeof ProcessUnitSchema>;
export const ProcessUnitResultSchema = z.object({ units: z.array(BloodUnitSchema) });
export type ProcessUnitResult = z.infer<typeof ProcessUnitResultSchema>;

export const ReceiveUnitsResultSchema = z.object({ units: z.array(BloodUnitSchema) });
export type ReceiveUnitsResult = z.infer<typeof ReceiveUnitsResultSchema>;

/** A counted discard asked for more usable units than the group has (server 409; said on the form before it is sent). */
export const notEnoughToDiscard = (available: number, bloodgroup: string, component: Component) =>
  available === 0
    ? `No units of ${bloodgroup} ${COMPONENT_WORDS[component]} are available to discard.`
    : `Only ${available} unit${available === 1 ? '' : 's'} of ${bloodgroup} ${COMPONENT_WORDS[component]} ${available === 1 ? 'is' : 'are'} available to discard.`;

export const DiscardUnitsSchema = z.union(
  [
    z.object({
      unit_ids: z
        .array(z.number().int().positive().max(MAX_ROW_ID))
        .min(1, 'Choose at least one unit')
        .max(500),
      reason: z.string().trim().max(500).optional(),
    }),
    z.object({
      bloodgroup: bloodGroupField(),
      /** Which units to count from; red cells (with whole blood, first-expiring-first) unless chosen. */
      component: componentField().default(DEFAULT_COMPONENT),
      count: z.coerce.number().int().min(1, 'Minimum 1 unit').max(500),
      reason: requiredText('Reason is required', 500),
    }),
    z.object({ expired: z.literal(true) }),
  ],
  { error: 'Send unit_ids; or bloodgroup, count and reason; or expired: true' },
);
export type DiscardUnits = z.infer<typeof DiscardUnitsSchema>;

export const DiscardResultSchema = z.object({ discarded_unit_ids: z.array(z.number().int()) });
export type DiscardResult = z.infer<typeof DiscardResultSchema>;

/** The 409 of a discard: units that are not available, or a group with fewer usable units than asked. */
export const DiscardConflictSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  /** Of the chosen units, those not available (already issued or discarded). */
  unit_ids: z.array(z.number().int()).optional(),
  /** Usable units the group has, when discarding a count. */
  available: z.number().int().optional(),
});

// ---------------------------------------------------------------- decisions

/** A POST body that may be left out entirely (a missing JSON body reaches the server as null). */
const optionalBody = <T extends z.ZodObject>(schema: T) =>
  schema.nullish().transform((body) => body ?? ({} as z.output<T>));

/** Optional `bloodgroup`: approve from this compatible group instead of the requested one. */
export const ApproveRequestSchema = optionalBody(z.object({ bloodgroup: z.enum(BLOOD_GROUPS).optional() }));
export const RejectSchema = optionalBody(
  z.object({ reason: z.string().trim().max(500, 'Must be at most 500 characters').optional() }),
);

/** The 409 body when a request's group lacks stock. */
export const InsufficientStockSchema = z.object({
  detail: z.string(),
  code: z.literal('insufficient_stock'),
  available: z.number().int(),
  compatible: z.array(z.object({ bloodgroup: z.enum(BLOOD_GROUPS), units: z.number().int() })),
});
export type InsufficientStock = z.infer<typeof InsufficientStockSchema>;

export const AdminRequestSchema = BloodRequestSchema.extend({
  patient_id: z.number().int(),
  patient_name: z.string(),
  patient_username: z.string(),
});
export type AdminRequest = z.infer<typeof AdminRequestSchema>;

export const AdminDonationSchema = DonationSchema.extend({
  /** Every state, `discarded` included (the donor's own view says `follow_up` instead). */
  status: z.enum(DONATION_STATUSES),
  donor_id: z.number().int(),
  donor_name: z.string(),
  donor_username: z.string(),
  /** The donor's recorded group now; `bloodgroup` is the group the booking (and its units) carry. */
  donor_bloodgroup: z.enum(BLOOD_GROUPS).nullable(),
  unit_ids: z.array(z.number().int()),
  /** Confidential (admins only): the screening at collection and the test results, once recorded. */
  screening: ScreeningSchema.nullable(),
  test_results: TestResultsRecordSchema.nullable(),
  /** Why a screening deferred it (each failed measurement), or why it was discarded. */
  outcome_reason: z.string().nullable(),
});
export type AdminDonation = z.infer<typeof AdminDonationSchema>;

/** Lists put pending items first (they need a decision; the one needed soonest first), then the newest. */
export const AdminRequestsQuerySchema = PageQuerySchema.extend({
  status: z.enum(REQUEST_STATUSES).optional(),
  patient_id: z.coerce.number().int().positive().max(MAX_ROW_ID).optional(),
});
export type AdminRequestsQuery = z.infer<typeof AdminRequestsQuerySchema>;
/**
 * Without a status: bookings first (earliest date first: the ones due today lead), then donations
 * awaiting results (oldest collection first), then the rest, newest first. With `status=pending`
 * or `collected`: that queue in the same order.
 */
export const AdminDonationsQuerySchema = PageQuerySchema.extend({
  status: z.enum(DONATION_STATUSES).optional(),
  /** `true`: only bookings due today or earlier; `false`: only bookings for a later day (the upcoming ones). */
  due: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  donor_id: z.coerce.number().int().positive().max(MAX_ROW_ID).optional(),
});
export type AdminDonationsQuery = z.infer<typeof AdminDonationsQuerySchema>;

// ---------------------------------------------------------------- audit

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.number().int().nullable(),
  /** JSON with `before` and/or `after` where the change has them (never a password, hash or token). */
  detail: z.unknown(),
  /** The actor's display name: first and last name, else username; "System" for the CLI and start-up. */
  actor_name: z.string(),
  /**
   * The display name of the person the entry is about (the donor or patient; a donation's donor, a
   * request's patient; the account), or null when it is about no one (stock changes).
   */
  subject_name: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** Newest first; optionally only the entries about one entity ("donation", "request", "blood_unit", "user"). */
export const AuditQuerySchema = PageQuerySchema.extend({
  entity: z.string().trim().max(50).optional(),
  entity_id: z.coerce.number().int().positive().max(MAX_ROW_ID).optional(),
  /** Who acted: part of the staff member's username ("system" for the daily work). */
  actor: z.string().trim().max(100).optional(),
  /** The bank's days the changes were made on, both included. */
  from: isoDateField('From is required').optional(),
  to: isoDateField('To is required').optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
