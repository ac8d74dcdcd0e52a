import type { Kysely } from 'kysely';

/**
 * A sent e-mail's job forgets its message (job-queue.ts markJobsDone), as does one given up: the
 * messages sent or given up before this release are forgotten too. They held names and addresses, and each password-reset message
 * the token that password_resets otherwise keeps only hashed. The rows stay, as the record of what
 * was sent when. Frozen once shipped.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ payload: '' })
    .where((eb) => eb.or([eb('done_at', 'is not', null), eb('failed_at', 'is not', null)]))
    .execute();
}

export async function down(): Promise<void> {
  // A forgotten message cannot be brought back; the rows are as the previous release expects them.
}
