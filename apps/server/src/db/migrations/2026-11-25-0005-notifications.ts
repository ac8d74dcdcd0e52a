import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { countChangesOf } from './support/count-changes';

/**
 * Telling people (PRODUCT.md 3.8; issue 23). Frozen once shipped.
 *
 * - users.email_notifications, users.callouts: the person's choices (both on by default).
 * - notifications: each user's in-app list; read_at once read.
 * - jobs: the persistent queue. A job is written in the transaction of the change that causes it,
 *   claimed by one instance at a time (locked_until), retried with backoff (run_after, attempts),
 *   done_at once done. Kinds: `email`.
 * - daily_runs: one row per calendar day whose daily work an instance has claimed, so it runs once.
 * - password_resets: single-use tokens, stored only as their SHA-256 hash.
 * - callouts: a low-stock call-out for a group (automatic or asked by staff), and callout_recipients:
 *   who was told when (a donor at most once in 14 days; booked-within-7-days is counted from it).
 * - notifications and users are counted in change_counters (users already is).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (table: Parameters<AnyDb['schema']['createTable']>[0]) => {
    const create = db.schema.createTable(table);
    return isPostgres
      ? create.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : create.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
  };

  await db.schema
    .alterTable('users')
    .addColumn('email_notifications', 'integer', (col) => col.notNull().defaultTo(1).check(sql`email_notifications in (0, 1)`))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('callouts', 'integer', (col) => col.notNull().defaultTo(1).check(sql`callouts in (0, 1)`))
    .execute();

  await id('notifications')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .column('user_id')
    .where(sql.ref('read_at'), 'is', null)
    .execute();

  await id('jobs')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('run_after', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('done_at', 'text')
    .addColumn('failed_at', 'text')
    .execute();
  // The due jobs, in order: what the queue reads every few seconds.
  await db.schema
    .createIndex('jobs_due_idx')
    .on('jobs')
    .columns(['run_after', 'id'])
    .where((eb) => eb.and([eb(sql.ref('done_at'), 'is', null), eb(sql.ref('failed_at'), 'is', null)]))
    .execute();

  await db.schema
    .createTable('daily_runs')
    .addColumn('day', 'text', (col) => col.primaryKey())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();

  await id('password_resets')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

  await id('callouts')
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull().check(sql`reason in ('low_stock', 'staff')`))
    .addColumn('created_by', 'integer', (col) => col.references('users.id'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('notified', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('callouts_group_idx').on('callouts').columns(['bloodgroup', 'created_at']).execute();
  await db.schema
    .createTable('callout_recipients')
    .addColumn('callout_id', 'integer', (col) => col.notNull().references('callouts.id'))
    .addColumn('donor_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('notified_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('callout_recipients_pk', ['callout_id', 'donor_id'])
    .execute();
  await db.schema.createIndex('callout_recipients_donor_idx').on('callout_recipients').columns(['donor_id', 'notified_at']).execute();

  await countChangesOf(db, 'notifications', isPostgres);
}

export async function down(): Promise<void> {
  throw new Error('2026-11-25-0005-notifications cannot be undone: restore a backup taken before it instead.');
}
