import type { ErrorResponse } from '@bloodbank/shared/errors';
import { readToken } from './session-storage';
import { readableDates } from './format';

/**
 * The one fetch wrapper of the web app. Every call goes to the same-origin `/api`, carries the
 * stored bearer token, and either resolves with a body checked against its zod schema or rejects
 * with an ApiError.
 */
export const API_BASE = '/api';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The server's own `detail` message; undefined when it sent none (network error, proxy page). */
    readonly detail: string | undefined,
    /** Field name -> message, as sent on 409/422. */
    readonly errors: Record<string, string> = {},
    readonly code?: string,
    /** The whole error body, for endpoints that add fields (e.g. `available` on insufficient stock). */
    readonly body?: unknown,
  ) {
    super(detail ?? (status === 0 ? 'Unable to reach the server' : `Request failed with status ${status}`));
  }
}

export type RequestBody = { json: unknown } | { form: Record<string, string> } | { formData: FormData };

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: RequestBody;
  /** Checks the response body; the result is typed by it. Omit for responses that are not read. */
  schema?: ResponseCheck<T>;
  query?: Record<string, string | number | boolean | undefined>;
  /**
   * `true` (default): send the stored token when there is one. `false`: send none (sign-in and
   * registration). A string: send this token (checking a fresh token before it is stored).
   */
  auth?: boolean | string;
  signal?: AbortSignal;
}

/** A zod schema, or any object that reads an unknown body into T and throws when it cannot. */
export interface ResponseCheck<T> {
  parse(value: unknown): T;
}

/** The server's error shape, read without zod so the first screen does not load it. */
function readErrorResponse(body: unknown): ErrorResponse | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, code, errors } = body as Record<string, unknown>;
  if (typeof detail !== 'string') return undefined;
  const fieldErrors =
    typeof errors === 'object' && errors !== null
      ? Object.fromEntries(
          Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : undefined;
  return {
    detail,
    ...(typeof code === 'string' ? { code } : {}),
    ...(fieldErrors ? { errors: fieldErrors } : {}),
  };
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** A request that will replace this device's token (a password change), while it runs. */
let tokenReplacement: Promise<unknown> | null = null;

/**
 * Runs `replace`, which ends the stored token on the server and stores the one it answers: a 401
 * to the old token meanwhile (the bell's check, arriving between the two) waits for it, and ends
 * nothing once the token has been replaced.
 */
export async function replacingToken<T>(replace: () => Promise<T>): Promise<T> {
  const running = replace();
  tokenReplacement = running;
  try {
    return await running;
  } finally {
    if (tokenReplacement === running) tokenReplacement = null;
  }
}

/**
 * Called when a request that carried the stored token gets 401: the session has expired or was
 * revoked (account deactivated, password reset), so the app signs out instead of showing errors.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  if (!options.schema) return undefined as T;
  const body = await readJson(response);
  try {
    return options.schema.parse(body);
  } catch {
    // The server and this build disagree on a contract: a deploy mismatch, not the user's fault.
    throw new ApiError(response.status, undefined, {}, 'unexpected_response');
  }
}

export interface Download {
  blob: Blob;
  /** From the response's content-disposition, when it names one. */
  filename: string | null;
}

/**
 * A file from the API (e.g. a CSV export), read as a blob. The token travels in the header like
 * every other call, never in a URL that could end up in a log or the browser history.
 */
export async function apiDownload(
  path: string,
  options: Pick<RequestOptions<never>, 'query' | 'signal'> & { accept?: string } = {},
): Promise<Download> {
  const response = await send(path, options, options.accept ?? '*/*');
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** Sends the request; resolves with the response when it is ok, else rejects with an ApiError. */
async function send(path: string, options: RequestOptions<unknown>, accept: string): Promise<Response> {
  const headers = new Headers({ accept });
  const token = options.auth === false ? null : typeof options.auth === 'string' ? options.auth : readToken();
  if (token) headers.set('authorization', `Bearer ${token}`);

  let body: BodyInit | undefined;
  const payload = options.body;
  if (payload && 'json' in payload) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(payload.json);
  } else if (payload && 'form' in payload) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(payload.form).toString();
  } else if (payload && 'formData' in payload) {
    // The browser sets multipart/form-data with its boundary itself.
    body = payload.formData;
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (payload ? 'POST' : 'GET'),
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined);
  }

  if (!response.ok) {
    const errorBody = await readJson(response);
    const parsed = readErrorResponse(errorBody);
    // Only while the token sent is still this device's: an answer to a token the app has since
    // replaced (a password change renews it; another tab signed someone in) ends nothing. A
    // replacement under way may be what ended this token: its outcome decides.
    if (response.status === 401 && token && options.auth !== false && typeof options.auth !== 'string') {
      if (tokenReplacement) await tokenReplacement.catch(() => undefined);
      if (token === readToken()) for (const listener of unauthorizedListeners) listener();
    }
    throw new ApiError(response.status, parsed?.detail, parsed?.errors ?? {}, parsed?.code, errorBody);
  }
  return response;
}

function buildUrl(path: string, query: RequestOptions<unknown>['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The message to show for a failed call: the server's detail, else the screen's own fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail
    ? readableDates(error.detail)
    : failureMessage(error, fallback);
}

/** Said after a form's own failure message when the server could not be reached at all. */
export const CONNECTION_HINT = 'The blood bank could not be reached: please check your connection.';

/** A form's failure message, with what to do about it when the connection failed (status 0). */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status === 0 ? `${fallback} ${CONNECTION_HINT}` : fallback;
}

/** Shown while a write waits for the phone to be online again (TanStack pauses it, then sends it). */
export const OFFLINE_WAITING = 'You are offline. This will be sent as soon as your connection is back.';
