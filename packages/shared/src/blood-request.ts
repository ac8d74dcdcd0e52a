import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { ComponentCountsSchema, COMPONENTS, componentField, DEFAULT_COMPONENT } from './components';
import { REQUEST_DAYS_AHEAD, REQUEST_UNITS } from './constants';
import { addDays } from './dates';
import { bloodGroupField, isoDateField, requiredInteger, requiredName, requiredText, type TodayProvider } from './fields';

export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** The Request Blood form (spec section 5). */
export function bloodRequestFormSchema(today: TodayProvider) {
  return z.object({
    bloodgroup: bloodGroupField(),
    unit: requiredInteger('Number of units is required').pipe(
      z
        .number()
        .min(REQUEST_UNITS.min, 'Minimum 1 unit is required')
        .max(REQUEST_UNITS.max, 'Maximum 10 units can be requested at once'),
    ),
    date: isoDateField('Required date is needed')
      .refine((date) => date >= today(), 'Date cannot be in the past')
      .refine((date) => date <= addDays(today(), REQUEST_DAYS_AHEAD), 'Required date must be within the next year'),
    doctorname: requiredName('Doctor name is required', 100),
    hospitaladdress: requiredText('Hospital address is required', 500),
    reason: requiredText('Reason is required', 1000),
    /** The component the patient needs (PRODUCT.md 3.5); red cells unless chosen. */
    component: componentField().default(DEFAULT_COMPONENT),
  });
}
export type BloodRequestForm = z.input<ReturnType<typeof bloodRequestFormSchema>>;
export type BloodRequestInput = z.output<ReturnType<typeof bloodRequestFormSchema>>;

export const BloodRequestSchema = z.object({
  id: z.number().int(),
  bloodgroup: z.enum(BLOOD_GROUPS),
  unit: z.number().int(),
  date: z.string(),
  doctorname: z.string(),
  hospitaladdress: z.string(),
  reason: z.string(),
  component: z.enum(COMPONENTS),
  status: z.enum(REQUEST_STATUSES),
  rejection_reason: z.string().nullable(),
  /** The group the units were actually issued from (a compatible group when the requested one ran short). */
  issued_bloodgroup: z.enum(BLOOD_GROUPS).nullable(),
  issued_unit_ids: z.array(z.number().int()),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type BloodRequest = z.infer<typeof BloodRequestSchema>;

export const PatientSummarySchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  /** Cancelled by the patient while pending: counted apart, so the counters add up to the total. */
  cancelled: z.number().int(),
});
export type PatientSummary = z.infer<typeof PatientSummarySchema>;

/**
 * One row of GET /api/stock: available units that have not expired today. `units` = red cells +
 * whole blood ("units of blood" on every screen); `components` the stock of each.
 */
export const StockEntrySchema = z.object({
  bloodgroup: z.enum(BLOOD_GROUPS),
  units: z.number().int(),
  components: ComponentCountsSchema,
});
export type StockEntry = z.infer<typeof StockEntrySchema>;
