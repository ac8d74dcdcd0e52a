import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { DatabaseOutageMonitor } from '../db/availability';
import { AppError } from '../errors';
import { API_HEADERS } from './security-headers';

/**
 * The one place errors become responses: `{ detail, code?, errors? }` with the right status, and
 * never a stack trace. A database that is unreachable or out of disk is a 503 (logged once per
 * outage by the monitor, not once per request); anything else unexpected is logged and answered
 * with a bare 500.
 */
export const DATABASE_UNAVAILABLE = {
  unreachable: 'The service is temporarily unavailable. Please try again in a moment.',
  disk_full: 'The service cannot save changes right now. Please try again later.',
} as const;

export function registerErrorHandler(app: FastifyInstance, outages: DatabaseOutageMonitor): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const retryAfter = error.extra?.retry_after_seconds;
      if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
      return reply.status(error.statusCode).send({ detail: error.detail, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(error.validationContext ?? 'body');
        errors[field] ??= issue.message ?? 'Invalid value';
      }
      return reply
        .status(422)
        .send({ detail: Object.values(errors)[0] ?? 'Invalid input', code: 'validation_failed', errors });
    }
    const known = knownClientError(error);
    if (known) {
      if (known.status === 429) {
        const retryAfter = reply.getHeader('retry-after');
        return reply.status(429).send({
          detail: `Too many requests. Please try again in ${retryAfter ?? 60} seconds.`,
          code: 'rate_limited',
        });
      }
      return reply.status(known.status).send({ detail: known.detail, code: known.code });
    }
    // Any other refusal a plugin raised with a 4xx (@fastify/static's 403 for a path climbing out of
    // its folder, say): that status, in the error shape, without the plugin's message (it may quote
    // the request).
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ detail: STATUS_CODES[status] ?? 'Bad Request', code: CLIENT_ERROR_CODES[status] ?? 'bad_request' });
    }
    if (outages.report(error)) {
      const outage = outages.outage ?? 'unreachable';
      return reply
        .status(503)
        .header('retry-after', outage === 'unreachable' ? '5' : '60')
        .send({ detail: DATABASE_UNAVAILABLE[outage], code: 'service_unavailable' });
    }
    request.log.error({ err: error, req: request }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal Server Error', code: 'internal_error' });
  });
}

const CLIENT_ERROR_CODES: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed' };

/** Errors raised by Fastify and its plugins before a handler runs, mapped to what the caller did wrong. */
function knownClientError(error: FastifyError): { status: number; detail: string; code: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, detail: 'Request body is too large', code: 'too_large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, detail: 'Unsupported content type', code: 'unsupported_media_type' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, detail: 'Request body is empty', code: 'malformed_body' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, detail: 'Request body is not valid JSON', code: 'malformed_body' };
    default:
      break;
  }
  if (error.statusCode === 429) return { status: 429, detail: 'Too many requests', code: 'rate_limited' };
  // JSON.parse failures surface as SyntaxError with status 400.
  if (error instanceof SyntaxError || (error.statusCode === 400 && !error.validation)) {
    return { status: 400, detail: 'Request body is malformed', code: 'malformed_body' };
  }
  if (error.statusCode === 413) return { status: 413, detail: 'Request body is too large', code: 'too_large' };
  if (error.statusCode === 415) return { status: 415, detail: 'Unsupported content type', code: 'unsupported_media_type' };
  return undefined;
}

/**
 * Errors Fastify answers before any hook runs (a path parameter longer than maxParamLength: 414; a
 * URL that does not decode: 400): the error shape and the API's security headers, as every answer
 * has, and never the URL echoed back.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known: Record<string, { status: number; detail: string; code: string }> = {
    FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: 'The address is too long', code: 'uri_too_long' },
    FST_ERR_BAD_URL: { status: 400, detail: 'The address is malformed', code: 'bad_url' },
  };
  const answer = known[error.code] ?? { status: 400, detail: 'Bad request', code: 'bad_request' };
  void reply.headers(API_HEADERS).status(answer.status).send({ detail: answer.detail, code: answer.code });
}

/**
 * Errors Node's HTTP parser meets before Fastify has a request (headers too large: 431; a request
 * that did not arrive in time: 408; anything unparseable: 400), written straight to the socket as
 * Fastify's default does, but in the error shape with the security headers.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, detail, code] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request did not arrive in time', 'request_timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers are too large', 'headers_too_large']
        : [400, 'Bad Request', 'The request is malformed', 'bad_request'];
  const body = JSON.stringify({ detail, code });
  if (socket.writable) {
    const headers = {
      ...API_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroySoon();
}
