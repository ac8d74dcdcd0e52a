import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { bloodGroupField, isoDateField, requiredText } from './fields';

/**
 * What staff record about a donation after it is booked (PRODUCT.md 3.2, 3.7): the screening at
 * collection, the test results, and deferrals. Confidential: admins only.
 */

// ---------------------------------------------------------------- screening (collection)

/**
 * Values no living donor can have: a measurement outside these is a typing error (422), not a
 * failed screening. Wide on purpose: the thresholds, not these, decide who may donate.
 */
export const SCREENING_POSSIBLE_RANGES = {
  haemoglobin_g_dl: { min: 3, max: 25, label: 'Haemoglobin', unit: 'g/dL' },
  weight_kg: { min: 20, max: 350, label: 'Weight', unit: 'kg' },
  bp_systolic: { min: 50, max: 300, label: 'Systolic blood pressure', unit: 'mmHg' },
  bp_diastolic: { min: 20, max: 200, label: 'Diastolic blood pressure', unit: 'mmHg' },
  pulse: { min: 20, max: 250, label: 'Pulse', unit: 'beats/min' },
} as const;
export type ScreeningField = keyof typeof SCREENING_POSSIBLE_RANGES;
export const SCREENING_FIELDS = Object.keys(SCREENING_POSSIBLE_RANGES) as ScreeningField[];

const hasAtMostDecimals = (value: number, decimals: number) => {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
};

function measurement(field: ScreeningField, options: { decimals: number }) {
  const { min, max, label, unit } = SCREENING_POSSIBLE_RANGES[field];
  const outOfRange = `${label} must be between ${min} and ${max} ${unit}`;
  return z.preprocess(
    (value) => {
      if (value === null || value === undefined) return undefined;
      if (typeof value !== 'string') return value;
      // Blank (spaces too) is missing; a decimal comma ("13,5", as many scales and habits write it) is read as a point.
      const typed = value.trim().replace(/^(\d+),(\d+)$/, '$1.$2');
      if (typed === '') return undefined;
      return Number.isNaN(Number(typed)) ? value : Number(typed);
    },
    z
      .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : 'Please enter a number') })
      .refine(Number.isFinite, 'Please enter a number')
      .refine(
        (value) => hasAtMostDecimals(value, options.decimals),
        options.decimals === 0 ? 'Please enter a whole number' : `Please enter at most ${options.decimals} decimal place`,
      )
      .min(min, outOfRange)
      .max(max, outOfRange),
  );
}

/** POST /admin/donations/:id/collect: the screening measurements, each physically possible. */
export const CollectionSchema = z
  .object({
    haemoglobin_g_dl: measurement('haemoglobin_g_dl', { decimals: 1 }),
    weight_kg: measurement('weight_kg', { decimals: 1 }),
    bp_systolic: measurement('bp_systolic', { decimals: 0 }),
    bp_diastolic: measurement('bp_diastolic', { decimals: 0 }),
    pulse: measurement('pulse', { decimals: 0 }),
  })
  .refine((values) => values.bp_diastolic < values.bp_systolic, {
    path: ['bp_diastolic'],
    message: 'Diastolic pressure must be lower than systolic pressure',
  });
export type CollectionForm = z.input<typeof CollectionSchema>;
export type CollectionInput = z.output<typeof CollectionSchema>;

/** The thresholds a donor must meet at screening (configurable; PRODUCT.md 3.2 gives the defaults). */
export const ScreeningThresholdsSchema = z.object({
  haemoglobin_min_g_dl: z.number(),
  weight_min_kg: z.number(),
  bp_systolic_min: z.number(),
  bp_systolic_max: z.number(),
  bp_diastolic_min: z.number(),
  bp_diastolic_max: z.number(),
  pulse_min: z.number(),
  pulse_max: z.number(),
  /** How long a failed screening defers the donor. */
  deferral_days: z.number().int(),
});
export type ScreeningThresholds = z.infer<typeof ScreeningThresholdsSchema>;

export const DEFAULT_SCREENING_THRESHOLDS: ScreeningThresholds = {
  haemoglobin_min_g_dl: 12.5,
  weight_min_kg: 50,
  bp_systolic_min: 90,
  bp_systolic_max: 180,
  bp_diastolic_min: 50,
  bp_diastolic_max: 100,
  pulse_min: 50,
  pulse_max: 100,
  deferral_days: 30,
};

/**
 * Each failed threshold, in the words of PRODUCT.md 3.2 ("Haemoglobin 11.8 g/dL is below 12.5
 * g/dL."). Empty when the donor passed. Shared so the dialog can say what the server will decide.
 */
export function failedScreeningReasons(values: CollectionInput, thresholds: ScreeningThresholds): string[] {
  const reasons: string[] = [];
  const below = (label: string, value: number, limit: number, unit: string) =>
    value < limit ? reasons.push(`${label} ${value} ${unit} is below ${limit} ${unit}.`) : undefined;
  const above = (label: string, value: number, limit: number, unit: string) =>
    value > limit ? reasons.push(`${label} ${value} ${unit} is above ${limit} ${unit}.`) : undefined;
  below('Haemoglobin', values.haemoglobin_g_dl, thresholds.haemoglobin_min_g_dl, 'g/dL');
  below('Weight', values.weight_kg, thresholds.weight_min_kg, 'kg');
  below('Systolic pressure', values.bp_systolic, thresholds.bp_systolic_min, 'mmHg');
  above('Systolic pressure', values.bp_systolic, thresholds.bp_systolic_max, 'mmHg');
  below('Diastolic pressure', values.bp_diastolic, thresholds.bp_diastolic_min, 'mmHg');
  above('Diastolic pressure', values.bp_diastolic, thresholds.bp_diastolic_max, 'mmHg');
  below('Pulse', values.pulse, thresholds.pulse_min, 'beats/min');
  above('Pulse', values.pulse, thresholds.pulse_max, 'beats/min');
  return reasons;
}

export const ScreeningSchema = z.object({
  haemoglobin_g_dl: z.number(),
  weight_kg: z.number(),
  bp_systolic: z.number().int(),
  bp_diastolic: z.number().int(),
  pulse: z.number().int(),
  passed: z.boolean(),
  recorded_by: z.string(),
  recorded_at: z.string(),
});
export type Screening = z.infer<typeof ScreeningSchema>;

// ---------------------------------------------------------------- test results

export const TEST_OUTCOMES = ['negative', 'reactive'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];
export const INFECTION_TESTS = ['hiv', 'hbv', 'hcv', 'syphilis'] as const;
export type InfectionTest = (typeof INFECTION_TESTS)[number];
export const INFECTION_TEST_LABELS: Record<InfectionTest, string> = {
  hiv: 'HIV',
  hbv: 'Hepatitis B (HBV)',
  hcv: 'Hepatitis C (HCV)',
  syphilis: 'Syphilis',
};

const outcomeField = (test: InfectionTest) =>
  z.enum(TEST_OUTCOMES, {
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? `${INFECTION_TEST_LABELS[test]} result is required`
        : 'Choose negative or reactive',
  });

/** POST /admin/donations/:id/results: the four infection markers and the confirmed ABO/Rh group. */
export const TestResultsSchema = z.object({
  hiv: outcomeField('hiv'),
  hbv: outcomeField('hbv'),
  hcv: outcomeField('hcv'),
  syphilis: outcomeField('syphilis'),
  bloodgroup: bloodGroupField('Confirmed blood group is required'),
});
export type TestResultsForm = z.input<typeof TestResultsSchema>;
export type TestResultsInput = z.output<typeof TestResultsSchema>;

export const TestResultsRecordSchema = TestResultsSchema.extend({
  bloodgroup: z.enum(BLOOD_GROUPS),
  recorded_by: z.string(),
  recorded_at: z.string(),
});
export type TestResultsRecord = z.infer<typeof TestResultsRecordSchema>;

// ---------------------------------------------------------------- deferrals

export const DEFERRAL_TYPES = ['temporary', 'permanent'] as const;
export type DeferralType = (typeof DEFERRAL_TYPES)[number];
/** Why the deferral exists: set by hand, by a failed screening, or by a reactive test. */
export const DEFERRAL_SOURCES = ['manual', 'screening', 'test'] as const;
export type DeferralSource = (typeof DEFERRAL_SOURCES)[number];

export const DeferralSchema = z.object({
  id: z.number().int(),
  donor_id: z.number().int(),
  type: z.enum(DEFERRAL_TYPES),
  /** The first day the donor may donate again; null when permanent. */
  until: z.string().nullable(),
  reason: z.string(),
  source: z.enum(DEFERRAL_SOURCES),
  donation_id: z.number().int().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  /** Whether it still defers the donor today (not lifted, and permanent or not yet over). */
  active: z.boolean(),
  lifted_at: z.string().nullable(),
  lifted_by: z.string().nullable(),
  lift_reason: z.string().nullable(),
});
export type Deferral = z.infer<typeof DeferralSchema>;

/**
 * POST /admin/donors/:id/deferrals: the deferral, and the donor's booking it cancelled (one on a day
 * it covers; null when there was none), so staff hear of it as the donor does.
 */
export const NewDeferralResultSchema = DeferralSchema.extend({
  cancelled_booking: z.object({ id: z.number().int(), date: z.string() }).nullable(),
});
export type NewDeferralResult = z.infer<typeof NewDeferralResultSchema>;

const deferralReason = requiredText('Reason is required', 500);

/** POST /admin/donors/:id/deferrals. `today` decides what a date in the past is. */
export function newDeferralSchema(today: () => string) {
  return z.discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal('temporary'),
        until: isoDateField('End date is required').refine(
          (date) => date > today(),
          'End date must be after today',
        ),
        reason: deferralReason,
      }),
      z.object({ type: z.literal('permanent'), reason: deferralReason }),
    ],
    { error: 'Choose temporary or permanent' },
  );
}
export type NewDeferralInput = z.output<ReturnType<typeof newDeferralSchema>>;

export const LiftDeferralSchema = z.object({ reason: deferralReason });
export type LiftDeferralInput = z.infer<typeof LiftDeferralSchema>;

/** What a donor sees of their own deferral (never the reason: it may name a test result). */
export const DonorDeferralSchema = z.object({
  type: z.enum(DEFERRAL_TYPES),
  until: z.string().nullable(),
});
export type DonorDeferral = z.infer<typeof DonorDeferralSchema>;

// ---------------------------------------------------------------- answers

export const CollectionResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('collected'), unit_ids: z.array(z.number().int()) }),
  z.object({ status: z.literal('deferred'), deferral: DeferralSchema, reasons: z.array(z.string()) }),
]);
export type CollectionResult = z.infer<typeof CollectionResultSchema>;

export const TestResultsOutcomeSchema = z.object({
  status: z.enum(['released', 'discarded']),
  /** Units of this donation now available (released) or discarded. */
  unit_ids: z.array(z.number().int()),
  /** The donor's group, when the confirmed group corrected it. */
  corrected_bloodgroup: z.enum(BLOOD_GROUPS).nullable(),
  /** On a reactive result: the deferral, and the donor's other units put on a lookback hold. */
  deferral: DeferralSchema.nullable(),
  lookback_unit_ids: z.array(z.number().int()),
});
export type TestResultsOutcome = z.infer<typeof TestResultsOutcomeSchema>;

/** The donor's follow-up text: the only thing a donor learns of a reactive result (PRODUCT.md 3.2). */
export const FOLLOW_UP_MESSAGE = 'Your donation needs follow-up. Please contact the blood bank.';
