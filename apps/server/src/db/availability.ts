import { sql } from 'kysely';
import type { Database } from './database';

/**
 * What a database error says about the database itself, rather than about the query:
 * - 'unreachable': the connection is gone or cannot be made (PostgreSQL restarted, its backends
 *   terminated, an idle-session timeout, a dropped TCP connection);
 * - 'disk_full': SQLite (or PostgreSQL) has no room to write.
 * Either is answered 503 and passes by itself; anything else is a fault of ours (500).
 */
export type DatabaseOutage = 'unreachable' | 'disk_full';

// PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin or crash shutdown,
// cannot connect now), 53300 (too many connections); 53100 is disk full.
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// What pg and pg-pool throw, without a code, when a connection ends or cannot be had in time.
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection ended)/;

export function databaseOutageOf(error: unknown): DatabaseOutage | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return 'disk_full';
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || NETWORK_CODES.has(code))) return 'unreachable';
  if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return 'unreachable';
  return undefined;
}

const OUTAGE_TEXT: Record<DatabaseOutage, string> = {
  unreachable: 'The database is unreachable',
  disk_full: 'The database disk is full',
};

export interface OutageLog {
  warn(message: string): void;
}

/**
 * Says in the log, once per outage, that the database is gone (and why) and that the server answers
 * 503 meanwhile; then probes it every `probeMs` until it answers, and says so once. Every request
 * during the outage is answered 503 without a line of its own: a minute without PostgreSQL under
 * load would otherwise write thousands of identical stack traces.
 */
export function databaseOutageMonitor(db: Database, log: OutageLog, probeMs = 1_000) {
  let current: DatabaseOutage | undefined;
  let probe: NodeJS.Timeout | undefined;
  let closed = false;

  const recovered = () => {
    if (!current) return;
    // At the level of the warning it ends, so whoever reads one reads both.
    log.warn(`Database outage over: the database answers again (it was ${current === 'unreachable' ? 'unreachable' : 'out of disk space'})`);
    current = undefined;
  };

  const startProbing = () => {
    if (probe || closed) return;
    probe = setInterval(() => {
      sql`select 1`.execute(db).then(
        () => {
          // A full disk is only known to be over when a write succeeds (writeSucceeded).
          if (current === 'unreachable') {
            clearInterval(probe);
            probe = undefined;
            recovered();
          }
        },
        () => undefined, // still gone: probed again
      );
    }, probeMs);
    probe.unref();
  };

  return {
    /** An error seen anywhere (a request, an idle connection); true when it was an outage. */
    report(error: unknown): boolean {
      const outage = databaseOutageOf(error);
      if (!outage) return false;
      if (current !== outage) {
        current = outage;
        const reason = error instanceof Error ? error.message : String(error);
        log.warn(`${OUTAGE_TEXT[outage]} (${reason}): answering 503 to what needs it until it is back`);
      }
      if (outage === 'unreachable') startProbing();
      return true;
    },
    /** A write committed: a full disk has room again. */
    writeSucceeded() {
      if (current === 'disk_full') recovered();
    },
    get outage() {
      return current;
    },
    close() {
      closed = true;
      clearInterval(probe);
      probe = undefined;
    },
  };
}

export type DatabaseOutageMonitor = ReturnType<typeof databaseOutageMonitor>;
