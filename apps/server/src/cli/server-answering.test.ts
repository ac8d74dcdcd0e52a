import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { markDataDirInUse, writeMark } from '../lib/data-dir-mark';
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

  it('names a server using DATA_DIR whatever its port, and forgets the mark a dead one left or one whose process id was reused', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloodbank-mark-'));
    const nothingThere = { host: '127.0.0.1', port: 9, dataDir };
    const marks = () => fs.readdirSync(dataDir).filter((name) => name.endsWith('.pid'));
    try {
      // Another process of this host, marked as a running server is.
      const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      const mark = writeMark(dataDir, other.pid!);
      expect(await serverAnswering(nothingThere)).toBe(
        `as process ${other.pid} on ${os.hostname()} using ${dataDir} (its mark is ${mark}: if no server is running, delete it)`,
      );

      // The same process id, but not the process that wrote the mark (a reused id after a crash or
      // a reboot, where /proc says when a process started): not a server.
      if (fs.existsSync('/proc/self/stat')) {
        const written = JSON.parse(fs.readFileSync(mark, 'utf8')) as { started: number };
        fs.writeFileSync(mark, JSON.stringify({ ...written, started: written.started - 1 }));
        expect(await serverAnswering(nothingThere)).toBeNull();
        expect(marks()).toEqual([]);
        writeMark(dataDir, other.pid!);
      }

      // Killed without removing its mark (a crash): the folder is free again.
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect(await serverAnswering(nothingThere)).toBeNull();
      expect(marks()).toEqual([]);

      // Another host's mark (a shared DATA_DIR) cannot be checked from here: taken for a server, and kept.
      const elsewhere = path.join(dataDir, 'server-host-b-4242.pid');
      fs.writeFileSync(elsewhere, JSON.stringify({ host: 'host-b', pid: 4242, started: 1 }));
      expect(await serverAnswering(nothingThere)).toMatch(/^as process 4242 on host-b using /);
      fs.rmSync(elsewhere);

      // This process's own mark is its own, and removed when it is done.
      const unmark = markDataDirInUse(dataDir);
      expect(marks()).toHaveLength(1);
      expect(await serverAnswering(nothingThere)).toBeNull();
      unmark();
      expect(marks()).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
