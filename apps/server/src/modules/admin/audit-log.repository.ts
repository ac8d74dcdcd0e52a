import type { DatabaseOrTransaction } from '../../db/database';

export interface AuditLogQuery {
  entity?: string | undefined;
  entityId?: number | undefined;
  limit: number;
  offset: number;
}

function filteredEntries(db: DatabaseOrTransaction, query: Omit<AuditLogQuery, 'limit' | 'offset'>) {
  let entries = db.selectFrom('audit_log');
  if (query.entity) entries = entries.where('entity', '=', query.entity);
  if (query.entityId) entries = entries.where('entity_id', '=', query.entityId);
  return entries;
}

/** Newest first. */
export async function listAuditEntries(db: DatabaseOrTransaction, query: AuditLogQuery) {
  const [items, total] = await Promise.all([
    filteredEntries(db, query)
      .select(['id', 'at', 'actor', 'action', 'entity', 'entity_id', 'detail'])
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    filteredEntries(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { items, total };
}
