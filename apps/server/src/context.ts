import type { Config } from './config';
import type { DatabaseOutageMonitor } from './db/availability';
import type { ChangeWatch } from './db/change-versions';
import type { Database, Engine } from './db/database';
import type { WriteTransactions } from './db/write-transactions';
import type { Clock } from './lib/clock';
import type { LoginThrottle } from './lib/login-throttle';
import type { ResetThrottle } from './lib/reset-throttle';
import type { SecurityNotices } from './lib/security-notices';

/** What every module is given: passed explicitly, never imported as a global. */
export interface AppContext {
  config: Config;
  db: Database;
  engine: Engine;
  /** Whether anything changed since: what reused answers check. */
  changes: ChangeWatch;
  /** Every request's changes go through here (batched commits on SQLite). */
  writes: WriteTransactions;
  clock: Clock;
  loginThrottle: LoginThrottle;
  /** Password reset requests per client address. */
  resetThrottle: ResetThrottle;
  /** Which notices of a password or address change go outside the e-mail budget. */
  securityNotices: SecurityNotices;
  /** Tells the log once per database outage (and its end); answers 503 meanwhile. */
  outages: DatabaseOutageMonitor;
  /** The persistent queue's worker: `kick()` after queueing a job (modules/notifications/job-worker.ts). */
  jobs: { kick(): void };
}
