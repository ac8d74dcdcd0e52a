import type { Kysely } from 'kysely';

/**
 * Two indexes every new request or donation paid for and no query needed. Frozen once shipped.
 *
 * `requests_status_idx` (status, id) and `donations_status_idx` (status, id) date from the first
 * schema; the admin lists and the pending counts now read `*_status_created_idx`
 * (status, created_at, id), which begins with the same column. Each insert kept both up to date:
 * one B-tree insert too many on the hottest write (POST /api/requests). The query plan tests
 * (test/performance/query-plans.test.ts) check on both engines that the hot queries still use an
 * index.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('requests_status_idx').ifExists().execute();
  await db.schema.dropIndex('donations_status_idx').ifExists().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('requests_status_idx').ifNotExists().on('blood_requests').columns(['status', 'id']).execute();
  await db.schema.createIndex('donations_status_idx').ifNotExists().on('donations').columns(['status', 'id']).execute();
}
