import { ErrorResponseSchema } from '@bloodbank/shared/errors';

/** Every /api/admin route is for admins only (PRODUCT.md section 4). */
export const ADMIN_ONLY = { access: ['ADMIN'] } as const;
export const adminAccessErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema } as const;
