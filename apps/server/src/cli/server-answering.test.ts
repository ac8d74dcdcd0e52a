import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { markDataDirInUse } from '../lib/data-dir-mark';
import { serverAnswering } from './server-answering';

const NO_DATA_DIR = path.join(os.tmpdir(), 'bloodbank-no-such-data-dir');

describe('serverAnswering (the seed and restore refuse to run beside a server)', () => {
  it('names a server answering on the port, and nothing once it is gone', async () => {
    const server = http.createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await serverAnswering({ host: '0.0.0.0', port, dataDir: NO_DATA_DIR })).toBe(`at http://127.0.0.1:${port}`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await serverAnswering({ host: '127.0.0.1', port, dataDir: NO_DATA_DIR })).toBeNull();
  });

  it('names a server using DATA_DIR whatever its port, and forgets the mark a dead one left', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-mark-'));
    const nothingThere = { host: '127.0.0.1', port: 9, dataDir };
    try {
      // Another process that marks the folder, as a running server does, and stays.
      const other = spawn(process.execPath, [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(dataDir)} + '/server-' + process.pid + '.pid', ''); setTimeout(() => {}, 60000)`,
      ]);
      const mark = path.join(dataDir, `server-${other.pid}.pid`);
      await expect.poll(() => fs.existsSync(mark)).toBe(true);
      expect(await serverAnswering(nothingThere)).toBe(`as process ${other.pid} using ${dataDir}`);

      // Killed without removing its mark (a crash): the folder is free again.
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect(await serverAnswering(nothingThere)).toBeNull();
      expect(fs.existsSync(mark)).toBe(false);

      // This process's own mark is its own, and removed when it is done.
      const unmark = markDataDirInUse(dataDir);
      expect(fs.readdirSync(dataDir)).toEqual([`server-${process.pid}.pid`]);
      unmark();
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
