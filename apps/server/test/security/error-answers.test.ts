import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';

/**
 * Answers made outside the route handlers (PRODUCT.md 3.9, issue 18): slow clients are cut off;
 * every error answer, 400/408/414/431 included, has the error shape `{detail, code}` and the
 * security headers, echoes nothing of the request, and no error log carries a stack for what the
 * client did wrong. Over a real socket, as only Node's HTTP parser sees some of these.
 */

let t: TestApp;
let port: number;
let logText = '';
const logs = new PassThrough();
logs.on('data', (chunk: Buffer) => (logText += chunk.toString()));

beforeAll(async () => {
  t = await createTestApp({
    env: { REQUEST_TIMEOUT_SECONDS: '2', HEADERS_TIMEOUT_SECONDS: '1', LOG_LEVEL: 'warn' },
    logStream: logs,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
}

/** Sends `head` (then `trickle` one byte at a time, every `everyMs`) and reads what comes back until the server closes. */
function rawExchange(head: string, options: { trickle?: string; everyMs?: number; giveUpMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    const trickle = options.trickle ?? '';
    const timer = trickle
      ? setInterval(() => {
          if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
        }, options.everyMs ?? 200)
      : undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${options.giveUpMs ?? 10_000} ms: ${received}`));
    }, options.giveUpMs ?? 10_000);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const [headText = '', ...bodyParts] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: bodyParts.join('\r\n\r\n'), closed: true });
    });
    socket.write(head);
  });
}

function expectErrorAnswer(answer: { headers: Record<string, unknown>; body: string }, detail: string, code: string) {
  expect(JSON.parse(answer.body)).toEqual({ detail, code });
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(answer.headers['cache-control']).toBe('no-store');
}

describe('slow clients', () => {
  it('closes a connection whose body trickles in (408 with the error shape)', async () => {
    const answer = await rawExchange(
      'POST /api/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      { trickle: ' '.repeat(1_000), everyMs: 200 },
    );
    expect(answer.status).toBe(408);
    expectErrorAnswer(answer, 'The request did not arrive in time', 'request_timeout');
  });

  it('closes a connection whose headers trickle in', async () => {
    const answer = await rawExchange('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', {
      trickle: 'X-Slow: ' + 'a'.repeat(1_000),
      everyMs: 200,
    });
    expect(answer.status).toBe(408);
    expectErrorAnswer(answer, 'The request did not arrive in time', 'request_timeout');
  });
});

describe('error answers made before any route runs', () => {
  it('431 for 100 KB of headers', async () => {
    const answer = await rawExchange(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expectErrorAnswer(answer, 'Request headers are too large', 'headers_too_large');
  });

  it('414 for a path parameter over 100 characters, without echoing the address', async () => {
    const long = 'x'.repeat(150);
    const response = await t.app.inject({ method: 'GET', url: `/api/admin/donors/${long}` });
    expect(response.statusCode).toBe(414);
    expectErrorAnswer(response, 'The address is too long', 'uri_too_long');
    expect(response.body).not.toContain(long);
  });

  it('a path that climbs out of the API docs is not found, in the error shape', async () => {
    const answer = await rawExchange('GET /api/docs/static/../../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect([403, 404]).toContain(answer.status);
    expect(JSON.parse(answer.body)).toEqual({ detail: expect.any(String), code: expect.any(String) });
    expect(answer.body).not.toContain('root:');
    const encoded = await rawExchange('GET /api/docs/static/..%2f..%2fpackage.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect([403, 404]).toContain(encoded.status);
    expect(encoded.body).not.toContain('"name"');
  });

  it('415 for a body of a content type no route reads (text/plain)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'username=asha&password=secret1',
    });
    expect(response.statusCode).toBe(415);
    expectErrorAnswer(response, 'Unsupported content type', 'unsupported_media_type');
  });

  it('400 for a malformed multipart registration, with no error logged', async () => {
    const before = logText.length;
    for (const [contentType, payload] of [
      ['multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="username"\r\n\r\nasha\r\n--XY'],
      ['multipart/form-data', 'no boundary at all'],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': contentType }, payload });
      expect(response.statusCode).toBe(400);
      expectErrorAnswer(response, 'Request body is not valid multipart/form-data', 'malformed_body');
    }
    expect(logText.slice(before)).not.toMatch(/"level":50|stack/);
  });
});
