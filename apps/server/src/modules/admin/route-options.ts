import { z } from 'zod';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import { MAX_ROW_ID } from '@bloodbank/shared/fields';

/** Every /api/admin route is for admins only (PRODUCT.md section 4). */
export const ADMIN_ONLY = { access: ['ADMIN'] } as const;
export const adminAccessErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema } as const;
export const IdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(MAX_ROW_ID) });
