/** Starts the server: config, database and migrations, the app, the first admin, listening. Loaded by server.ts. */
// Bounds the old space's growth before the startup allocates (lib/heap-growth.ts explains why).
import './lib/heap-growth';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, configWarnings, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/database';
import { openDatabaseFromConfig } from './db/open-from-config';
import { ensureInitialAdmin } from './modules/users/admin-accounts';
import { markDataDirInUse } from './lib/data-dir-mark';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** Signals this close together ask for one graceful stop; a later one means "now". */
const SAME_STOP_MS = 1_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // From before the database is opened: a restore or a demo seed must not run beside this server.
  const unmark = markDataDirInUse(config.dataDir);
  process.on('exit', unmark);
  const database = openDatabaseFromConfig(config);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp(config, { database, dailyWork: true, jobWorker: true });
  // An upgrade says what it changed in the database (there is no way back but a backup).
  if (applied.length) app.log.info({ migrations: applied }, `Applied ${applied.length} database migration(s): ${applied.join(', ')}`);

  const admin = await ensureInitialAdmin(database.db, config);
  if (admin.kind === 'created-random') {
    // Printed once, on the first start only; the file keeps it for whoever missed the log.
    app.log.warn(
      { username: admin.username, passwordFile: admin.passwordFile },
      `Created the initial admin "${admin.username}" with password: ${admin.password} (also written to ${admin.passwordFile}; change it with npm run admin:create -- --reset)`,
    );
  } else if (admin.kind === 'created-from-env') {
    app.log.info({ username: admin.username }, 'Created the initial admin from ADMIN_USERNAME');
  }

  for (const warning of configWarnings(config)) app.log.warn(warning);

  // SIGINT and SIGTERM are handled here, not by close-with-grace, which takes a second signal as
  // "exit now": Ctrl+C on `npm start` reaches the server twice at once (from the terminal, and
  // forwarded by npm), and cut the requests in flight. A repeat within a second is the same request.
  const grace = closeWithGrace({ delay: 10_000, skip: [...STOP_SIGNALS] }, async ({ signal, err, manual }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else if (!manual) app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close();
  });
  let stopAskedAt: number | undefined;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      const now = Date.now();
      if (stopAskedAt === undefined) {
        stopAskedAt = now;
        app.log.info({ signal }, 'shutting down: finishing in-flight requests');
        void grace.close();
      } else if (now - stopAskedAt > SAME_STOP_MS) {
        app.log.warn({ signal }, 'asked again to stop: exiting now');
        process.exit(1);
      }
    });
  }

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Blood bank is running at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (database: ${database.engine})`,
  );
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
