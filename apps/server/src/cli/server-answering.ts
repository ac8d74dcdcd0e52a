import type { Config } from '../config';

/**
 * The address of a server answering on this configuration's HOST and PORT, or null. The commands
 * that need the database to themselves (the demo seed, a restore) refuse to run beside it: SQLite
 * would refuse the seed's writes half-way, and a restore under a running server is overwritten
 * or ignored by it.
 */
export async function serverAnswering(config: Pick<Config, 'host' | 'port'>): Promise<string | null> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  try {
    await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
    return url;
  } catch {
    return null;
  }
}
