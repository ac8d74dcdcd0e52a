import type { DatabaseOrTransaction } from '../../db/database';

/** Every change an admin (or the system on its behalf) makes: who, when, what, before and after. */
export interface NewAuditEntry {
  actorId: number | null;
  actor: string;
  action: string;
  entity: string;
  entityId: number | null;
  before?: unknown;
  after?: unknown;
  at: string;
}

export async function recordAudit(db: DatabaseOrTransaction, entry: NewAuditEntry): Promise<void> {
  const detail: Record<string, unknown> = {};
  if (entry.before !== undefined) detail.before = entry.before;
  if (entry.after !== undefined) detail.after = entry.after;
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      actor_id: entry.actorId,
      actor: entry.actor,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      detail: JSON.stringify(detail),
    })
    .execute();
}
