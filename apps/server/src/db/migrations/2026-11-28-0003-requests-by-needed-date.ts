import type { Kysely } from 'kysely';

/**
 * Manage Requests lists the pending requests by the day the blood is needed, soonest first, then in
 * the order they came (request-decisions.repository.ts listRequestsForAdmin): a request needed
 * today sat on page 115 of 116 when they were listed newest first. Frozen once shipped.
 *
 * `requests_status_needed_idx` (status, required_date, id) keeps that list read in index order, a
 * page at a time, never sorted. `requests_status_created_idx` stays for the decided requests.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('requests_status_needed_idx')
    .on('blood_requests')
    .columns(['status', 'required_date', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('requests_status_needed_idx').ifExists().execute();
}
