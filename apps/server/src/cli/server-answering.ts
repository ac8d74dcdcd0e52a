import type { Config } from '../config';
import { serversUsingDataDir } from '../lib/data-dir-mark';

/**
 * Where a running server was found, in words ("at http://127.0.0.1:3000", "as process 4242 on
 * host-a using ./data (its mark is …)"), or null. The commands that need the database to themselves (the demo seed, a restore)
 * refuse to run beside it: SQLite would refuse the seed's writes half-way, and a restore under a
 * running server is overwritten or ignored by it. A server is found by its mark in DATA_DIR
 * (lib/data-dir-mark.ts), whatever its PORT, or by answering on this HOST and PORT.
 */
export async function serverAnswering(config: Pick<Config, 'host' | 'port' | 'dataDir'>): Promise<string | null> {
  const [server] = serversUsingDataDir(config.dataDir);
  if (server) {
    return `as process ${server.pid} on ${server.host} using ${config.dataDir} (its mark is ${server.file}: if no server is running, delete it)`;
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  try {
    await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
    return `at ${url}`;
  } catch {
    return null;
  }
}
