import { z } from 'zod';

/** GET /api/stats: the home page's live headline figures. */
export const StatsSchema = z.object({
  donors: z.number().int(),
  patients: z.number().int(),
  units: z.number().int(),
  donations: z.number().int(),
});
export type Stats = z.infer<typeof StatsSchema>;

export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  db: z.enum(['ok', 'unreachable']),
});
export type Health = z.infer<typeof HealthSchema>;
