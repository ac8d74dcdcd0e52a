import { describe, expect, it, vi } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorsOnlyRequestLog } from './request-log';

describe('request log above info', () => {
  const logger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

  it('writes no line for a request that went well, and the error line for one that did not', () => {
    const log = new ErrorsOnlyRequestLog();
    const request = { log: logger() } as unknown as FastifyRequest;
    const reply = { log: logger(), elapsedTime: 1 } as unknown as FastifyReply;

    log.incomingRequest(request, reply);
    log.requestCompleted(null, request, reply);
    expect(request.log.info).not.toHaveBeenCalled();
    expect(reply.log.info).not.toHaveBeenCalled();

    const failure = new Error('socket hang up');
    log.requestCompleted(failure, request, reply);
    expect(reply.log.error).toHaveBeenCalledWith(expect.objectContaining({ err: failure }), 'request errored');
  });

  it('still reports stream errors', () => {
    const log = new ErrorsOnlyRequestLog();
    const replyLog = logger();
    const reply = { log: replyLog } as unknown as FastifyReply;
    log.streamError(new Error('premature close'), { log: logger() } as unknown as FastifyRequest, reply);
    expect(replyLog.warn.mock.calls.length + replyLog.error.mock.calls.length).toBeGreaterThan(0);
  });
});
