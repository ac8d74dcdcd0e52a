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
