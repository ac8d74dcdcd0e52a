import { z } from 'zod';

/** The one error shape every API failure has. */
export const ErrorResponseSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  /** Field name -> first message, on 422. */
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
