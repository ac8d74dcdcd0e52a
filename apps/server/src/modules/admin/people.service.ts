import type {
  AdminDonor,
  AdminDonorUpdate,
  AdminPatient,
  AdminPatientUpdate,
  Paged,
  PeopleQuery,
} from '@bloodbank/shared/admin';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { deferralsInForceOf } from '../deferrals/deferrals.repository';
import { endOldAddress } from '../users/email-change';
import { cancelPendingBookingByStaff, donationActivityMessages } from '../donations/donation-activity';
import {
  deactivatePerson,
  findDonor,
  findPatient,
  listDonors,
  listPatients,
  lockPerson,
  updatePersonFields,
  type DonorRecord,
  type PatientRecord,
  type PersonRole,
} from './people.repository';

const personFields = (row: DonorRecord | PatientRecord) => ({
  id: row.id,
  username: row.username,
  first_name: row.first_name ?? '',
  last_name: row.last_name ?? '',
  email: row.email ?? '',
  // Registration requires a group for donors and patients; 'O+' never shows unless a row was made by hand.
  bloodgroup: row.bloodgroup ?? 'O+',
  address: row.address ?? '',
  mobile: row.mobile ?? '',
  is_active: row.is_active === 1,
  deactivated_at: row.deactivated_at,
  created_at: row.created_at,
});

export const toAdminDonor = (row: DonorRecord, deferred: AdminDonor['deferred']): AdminDonor => ({
  ...personFields(row),
  donations: Number(row.donations),
  deferred,
});

export const toAdminPatient = (row: PatientRecord): AdminPatient => ({
  ...personFields(row),
  disease: row.disease,
  age: row.age,
  doctorname: row.doctorname,
  requests: Number(row.requests),
});

interface PersonKind<Row, Api> {
  role: PersonRole;
  /** The audit log's entity name. */
  entity: 'donor' | 'patient';
  notFound: string;
  find: (db: DatabaseOrTransaction, id: number) => Promise<Row | undefined>;
  /** As staff see the person; `today` (the bank's) decides whether a donor's deferral is in force. */
  toApi: (db: DatabaseOrTransaction, row: Row, today: string) => Promise<Api>;
}

const DONORS: PersonKind<DonorRecord, AdminDonor> = {
  role: 'DONOR',
  entity: 'donor',
  notFound: 'Donor not found',
  find: findDonor,
  toApi: async (db, row, today) => toAdminDonor(row, (await deferralsInForceOf(db, [row.id], today)).get(row.id) ?? null),
};

const PATIENTS: PersonKind<PatientRecord, AdminPatient> = {
  role: 'PATIENT',
  entity: 'patient',
  notFound: 'Patient not found',
  find: findPatient,
  toApi: (_db, row) => Promise.resolve(toAdminPatient(row)),
};

const USER_FIELDS = ['first_name', 'last_name', 'email', 'bloodgroup', 'address', 'mobile'] as const;
const PATIENT_FIELDS = ['disease', 'age', 'doctorname'] as const;

const pageOf = (ctx: AppContext, query: PeopleQuery) => ({
  search: query.search ? { text: query.search, engine: ctx.engine } : undefined,
  status: query.status,
  sort: query.sort,
  order: query.order,
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
});

export async function listDonorsPage(ctx: AppContext, query: PeopleQuery): Promise<Paged<AdminDonor>> {
  const { items, total } = await listDonors(ctx.db, pageOf(ctx, query));
  // The page's deferrals in one query, not one per donor.
  const deferred = await deferralsInForceOf(ctx.db, items.map((row) => row.id), ctx.clock.today());
  return {
    items: items.map((row) => toAdminDonor(row, deferred.get(row.id) ?? null)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function listPatientsPage(ctx: AppContext, query: PeopleQuery): Promise<Paged<AdminPatient>> {
  const { items, total } = await listPatients(ctx.db, pageOf(ctx, query));
  return { items: items.map(toAdminPatient), total, page: query.page, pageSize: query.pageSize };
}

async function getPerson<Row, Api>(ctx: AppContext, kind: PersonKind<Row, Api>, id: number): Promise<Api> {
  const row = await kind.find(ctx.db, id);
  if (!row) throw notFound(kind.notFound);
  return kind.toApi(ctx.db, row, ctx.clock.today());
}

/**
 * Applies the fields that differ from what is stored, and records before/after of exactly those.
 * An edit that changes nothing writes nothing.
 */
async function updatePerson<Row extends { username: string; first_name: string | null; email: string | null }, Api>(
  ctx: AppContext,
  admin: Principal,
  kind: PersonKind<Row, Api>,
  id: number,
  changes: AdminDonorUpdate | AdminPatientUpdate,
): Promise<Api> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    if (!(await lockPerson(trx, ctx.engine, kind.role, id))) throw notFound(kind.notFound);
    const before = (await kind.find(trx, id)) as Row;
    const stored = before as Record<string, unknown>;
    const requested = changes as Record<string, unknown>;
    const editable: readonly string[] = kind.role === 'PATIENT' ? [...USER_FIELDS, ...PATIENT_FIELDS] : USER_FIELDS;
    const changed = editable.filter((field) => requested[field] !== undefined && requested[field] !== stored[field]);
    if (changed.length === 0) return kind.toApi(trx, before, ctx.clock.today());

    const pick = (fields: readonly string[], source: Record<string, unknown>) =>
      Object.fromEntries(fields.filter((field) => changed.includes(field)).map((field) => [field, source[field]]));
    await updatePersonFields(trx, id, { ...pick(USER_FIELDS, requested), updated_at: at }, pick(PATIENT_FIELDS, requested));
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: `${kind.entity}.updated`,
      entity: kind.entity,
      entityId: id,
      before: pick(changed, stored),
      after: pick(changed, requested),
      at,
    });
    if (changed.includes('email')) {
      const names = { id, username: before.username, first_name: before.first_name, userType: kind.role === 'DONOR' ? 'donor' : 'patient' } as const;
      await endOldAddress(ctx, trx, { ...names, oldEmail: before.email, newEmail: requested.email as string }, 'staff', at);
    }
    return kind.toApi(trx, (await kind.find(trx, id)) as Row, ctx.clock.today());
  });
}

/**
 * The account can no longer sign in, and its tokens stop working at once (every request checks
 * is_active). Nothing is deleted: donations, requests and units stay in the history. Deactivating
 * an inactive account changes nothing and answers the same.
 */
const CLOSED_ACCOUNT_REASON = "The donor's account was closed.";

async function deactivate<Row, Api>(ctx: AppContext, admin: Principal, kind: PersonKind<Row, Api>, id: number): Promise<Api> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    if (await deactivatePerson(trx, kind.role, id, at)) {
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: `${kind.entity}.deactivated`,
        entity: kind.entity,
        entityId: id,
        before: { is_active: true },
        after: { is_active: false, deactivated_at: at },
        at,
      });
      // A closed account's booking would hold its place until the no-show run: cancelled now.
      if (kind.role === 'DONOR') {
        await cancelPendingBookingByStaff(trx, admin, id, {
          reason: CLOSED_ACCOUNT_REASON,
          feedMessage: donationActivityMessages.cancelledAccountClosed,
          cause: { reason: CLOSED_ACCOUNT_REASON },
          at,
        });
      }
    }
    const row = await kind.find(trx, id);
    if (!row) throw notFound(kind.notFound);
    return kind.toApi(trx, row, ctx.clock.today());
  });
}

export const getDonor = (ctx: AppContext, id: number) => getPerson(ctx, DONORS, id);
export const getPatient = (ctx: AppContext, id: number) => getPerson(ctx, PATIENTS, id);
export const updateDonor = (ctx: AppContext, admin: Principal, id: number, changes: AdminDonorUpdate) =>
  updatePerson(ctx, admin, DONORS, id, changes);
export const updatePatient = (ctx: AppContext, admin: Principal, id: number, changes: AdminPatientUpdate) =>
  updatePerson(ctx, admin, PATIENTS, id, changes);
export const deactivateDonor = (ctx: AppContext, admin: Principal, id: number) => deactivate(ctx, admin, DONORS, id);
export const deactivatePatient = (ctx: AppContext, admin: Principal, id: number) => deactivate(ctx, admin, PATIENTS, id);
