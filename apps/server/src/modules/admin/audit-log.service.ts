import type { AuditEntry, AuditQuery, Paged } from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import { listAuditEntries } from './audit-log.repository';
import { addDays } from '@bloodbank/shared/dates';
import { startOfDayInstant } from './calendar';

/** Keys whose values never leave the server, whatever a future audit entry records. */
const SECRET_KEY = /pass(word)?|hash|token|secret|otp/i;

/** The detail without any secret-looking field, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_KEY.test(key))
        .map(([key, inner]) => [key, withoutSecrets(inner)]),
    );
  }
  return value;
}

/** One page of the audit log, newest first, with the names of the actor and of the person concerned. */
export async function listAudit(
  ctx: AppContext,
  query: Pick<AuditQuery, 'page' | 'pageSize' | 'entity' | 'entity_id' | 'actor' | 'from' | 'to'>,
): Promise<Paged<AuditEntry>> {
  const zone = ctx.config.timezone;
  const { items, total } = await listAuditEntries(ctx.db, {
    entity: query.entity,
    entityId: query.entity_id,
    actor: query.actor ? { text: query.actor, engine: ctx.engine } : undefined,
    // The bank's days, as staff name them: from the start of `from` to the end of `to`.
    since: query.from ? startOfDayInstant(query.from, zone) : undefined,
    before: query.to ? startOfDayInstant(addDays(query.to, 1), zone) : undefined,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: items.map((row) => ({ ...row, detail: withoutSecrets(JSON.parse(row.detail) as unknown) })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
