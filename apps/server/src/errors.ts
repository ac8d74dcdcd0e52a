/** An error with a status and a message meant for the caller. Anything else is a 500. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly code?: string,
    /** Extra fields merged into the response body (e.g. `errors`, `available`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: string, code = 'bad_request') => new AppError(400, detail, code);
export const unauthorized = (detail = 'Not authenticated') => new AppError(401, detail, 'unauthorized');
export const forbidden = (detail = 'You do not have permission to do this') => new AppError(403, detail, 'forbidden');
export const notFound = (detail = 'Not Found') => new AppError(404, detail, 'not_found');
export const conflict = (detail: string, code = 'conflict', extra?: Record<string, unknown>) =>
  new AppError(409, detail, code, extra);
/** A 422 that points at fields, shaped like the validation errors of the route schemas. */
export const invalidFields = (errors: Record<string, string>) =>
  new AppError(422, Object.values(errors)[0] ?? 'Invalid input', 'validation_failed', { errors });
export const tooManyRequests = (detail: string) => new AppError(429, detail, 'rate_limited');
/** A 429 that says how long to wait, in its body and (plugins/error-handler.ts) its Retry-After header. */
export const tooManyRequestsFor = (detail: string, retryAfterSeconds: number) =>
  new AppError(429, detail, 'rate_limited', { retry_after_seconds: retryAfterSeconds });
