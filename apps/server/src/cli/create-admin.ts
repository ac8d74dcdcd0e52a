import { parseArgs } from 'node:util';
import { passwordField, usernameField } from '@bloodbank/shared/auth';
import { loadConfig } from '../config';
import { migrateToLatest } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { openDatabaseFromConfig } from '../db/open-from-config';
import { createAdmin, resetPassword } from '../modules/users/admin-accounts';

/**
 * npm run admin:create -- --username NAME --password SECRET          creates an admin
 * npm run admin:create -- --reset --username NAME --password SECRET  resets anyone's password
 * The password may also come from the ADMIN_PASSWORD variable, to keep it out of shell history.
 */
const { values } = parseArgs({
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    reset: { type: 'boolean', default: false },
  },
});
const config = loadConfig();
const username = usernameField.safeParse(values.username ?? '');
const password = passwordField.safeParse(values.password ?? config.adminPassword ?? '');
if (!username.success || !password.success) {
  console.error('Usage: npm run admin:create -- [--reset] --username NAME --password SECRET');
  for (const issue of [...(username.error?.issues ?? []), ...(password.error?.issues ?? [])]) console.error(`  ${issue.message}`);
  process.exit(2);
}

const database = openDatabaseFromConfig(config);
try {
  await migrateToLatest(database.db);
  if (values.reset) {
    const done = await resetPassword(database.db, username.data, password.data);
    console.log(done ? `Password reset for "${username.data}"; their sessions are signed out.` : `No user "${username.data}".`);
    if (!done) process.exitCode = 1;
  } else {
    const id = await createAdmin(database.db, username.data, password.data);
    console.log(`Admin "${username.data}" created (id ${id}).`);
  }
} catch (error) {
  console.error(isUniqueViolation(error) ? 'Username already exists' : error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
