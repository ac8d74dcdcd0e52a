import { sql, type Selectable } from 'kysely';
import { containsText, type TextSearch } from '../../db/contains-text';
import type { DatabaseOrTransaction } from '../../db/database';
import type { AuditLogTable } from '../../db/types';

export interface AuditLogQuery {
  entity?: string | undefined;
  entityId?: number | undefined;
  /** Part of the actor's username, any case. */
  actor?: TextSearch | undefined;
  /** Instants: from (included) and before (excluded). */
  since?: string | undefined;
  before?: string | undefined;
  limit: number;
  offset: number;
}

type AuditRow = Selectable<AuditLogTable>;

/** An audit row with the names a person reads instead of ids: who acted, and whom it was about. */
export interface NamedAuditRow extends Omit<AuditRow, 'actor_id'> {
  actor_name: string;
  subject_name: string | null;
}

/** The entities whose id is a user's id. */
const PERSON_ENTITIES = new Set(['donor', 'patient', 'user']);

function filteredEntries(db: DatabaseOrTransaction, query: Omit<AuditLogQuery, 'limit' | 'offset'>) {
  let entries = db.selectFrom('audit_log');
  if (query.entity) entries = entries.where('entity', '=', query.entity);
  if (query.entityId) entries = entries.where('entity_id', '=', query.entityId);
  if (query.actor) entries = entries.where(containsText(sql.ref('actor'), query.actor));
  if (query.since) entries = entries.where('at', '>=', query.since);
  if (query.before) entries = entries.where('at', '<', query.before);
  return entries;
}

const displayName = (user: { username: string; first_name: string | null; last_name: string | null }) =>
  `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || user.username;

/**
 * The names behind one page of entries, in small lookups by primary key (a page is at most 100
 * entries): a donation's and a deferral's donor, a request's patient, then every user involved.
 */
async function nameEntries(db: DatabaseOrTransaction, rows: AuditRow[]): Promise<NamedAuditRow[]> {
  const idsOf = (entity: string) => [
    ...new Set(
      rows
        .filter((row) => row.entity === entity && row.entity_id !== null)
        .map((row) => row.entity_id as number),
    ),
  ];
  const donationIds = idsOf('donation');
  const requestIds = idsOf('request');
  const deferralIds = idsOf('deferral');
  const [donations, requests, deferrals] = await Promise.all([
    donationIds.length
      ? db
          .selectFrom('donations')
          .select(['id', 'donor_id as user_id'])
          .where('id', 'in', donationIds)
          .execute()
      : [],
    requestIds.length
      ? db
          .selectFrom('blood_requests')
          .select(['id', 'patient_id as user_id'])
          .where('id', 'in', requestIds)
          .execute()
      : [],
    deferralIds.length
      ? db.selectFrom('deferrals').select(['id', 'donor_id as user_id']).where('id', 'in', deferralIds).execute()
      : [],
  ]);
  const donorOf = new Map(donations.map((row) => [row.id, row.user_id]));
  const patientOf = new Map(requests.map((row) => [row.id, row.user_id]));
  const deferredDonorOf = new Map(deferrals.map((row) => [row.id, row.user_id]));

  const subjectUserId = (row: AuditRow): number | undefined => {
    if (row.entity_id === null) return undefined;
    if (PERSON_ENTITIES.has(row.entity)) return row.entity_id;
    if (row.entity === 'donation') return donorOf.get(row.entity_id);
    if (row.entity === 'request') return patientOf.get(row.entity_id);
    if (row.entity === 'deferral') return deferredDonorOf.get(row.entity_id);
    return undefined;
  };
  const userIds = new Set<number>();
  for (const row of rows) {
    if (row.actor_id !== null) userIds.add(row.actor_id);
    const subject = subjectUserId(row);
    if (subject !== undefined) userIds.add(subject);
  }
  const users = userIds.size
    ? await db
        .selectFrom('users')
        .select(['id', 'username', 'first_name', 'last_name'])
        .where('id', 'in', [...userIds])
        .execute()
    : [];
  const nameOf = new Map(users.map((user) => [user.id, displayName(user)]));

  return rows.map((row) => {
    const subject = subjectUserId(row);
    const { actor_id, ...entry } = row;
    return {
      ...entry,
      // "system" (the CLI, start-up) has no account; a removed account falls back to the name stored.
      actor_name:
        (actor_id !== null ? nameOf.get(actor_id) : undefined) ??
        (entry.actor === 'system' ? 'System' : entry.actor),
      subject_name: subject !== undefined ? (nameOf.get(subject) ?? null) : null,
    };
  });
}

/** Newest first. */
export async function listAuditEntries(db: DatabaseOrTransaction, query: AuditLogQuery) {
  const [rows, total] = await Promise.all([
    filteredEntries(db, query)
      .select(['id', 'at', 'actor_id', 'actor', 'action', 'entity', 'entity_id', 'detail'])
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    filteredEntries(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  return { items: await nameEntries(db, rows), total };
}
