import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's log lines about requests when the log level is above info: its two info lines per
 * request ("incoming request", "request completed") are not built at all, as they would be built
 * and timed only to be discarded; a request that ended in an error, a stream error or a
 * serialization error is still logged at its level.
 */
export class ErrorsOnlyRequestLog extends LogController {
  override incomingRequest(_request: FastifyRequest, _reply: FastifyReply): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) super.requestCompleted(error, request, reply, metadata);
  }
}

/**
 * A URL as logged: the query's values are left out, names kept (`/reset-password?token=~`). A
 * password-reset link carries its token in the query, and searches carry people's names; a log
 * reader needs neither to follow a request.
 */
export function urlWithoutQueryValues(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const names = url
    .slice(start + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=', 1)[0]}=~`);
  return `${url.slice(0, start)}?${names.join('&')}`;
}

/** Fastify's request serializer, with the query's values left out (urlWithoutQueryValues). */
export function serializeLoggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlWithoutQueryValues(request.url),
    version: [request.headers['accept-version']].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
