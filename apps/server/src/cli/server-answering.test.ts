import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serverAnswering } from './server-answering';

describe('serverAnswering (the seed and restore refuse to run beside a server)', () => {
  it('names a server answering on the port, and nothing once it is gone', async () => {
    const server = http.createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await serverAnswering({ host: '0.0.0.0', port })).toBe(`http://127.0.0.1:${port}`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await serverAnswering({ host: '127.0.0.1', port })).toBeNull();
  });
});
