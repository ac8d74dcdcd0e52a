import { MY_DETAILS_FIELDS, userTypeOf, type CurrentUser, type MyDetailsUpdate } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { queueEmail } from '../notifications/notify';
import { findUserProfile } from './users.repository';

export async function getCurrentUser(db: DatabaseOrTransaction, userId: number): Promise<CurrentUser> {
  const user = await findUserProfile(db, userId);
  if (!user) throw notFound('User not found');
  return {
    userId: user.id,
    userType: userTypeOf(user.role),
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    bloodgroup: user.bloodgroup,
    address: user.address,
    mobile: user.mobile,
    disease: user.disease,
    age: user.age,
    doctorname: user.doctorname,
    has_profile_pic: user.profile_pic !== null,
    created_at: user.created_at,
  };
}

export interface PersonNames {
  username: string;
  first_name: string | null;
  last_name: string | null;
}

/** "Asha Kumar"; the username when no name is on file. */
export const fullNameOf = (person: PersonNames) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ').trim() || person.username;

/**
 * PATCH /users/me: the fields that differ from what is stored are written and audited (before and
 * after of exactly those); an edit that changes nothing writes nothing. A new e-mail address is told
 * to the old one, so an account taken over cannot quietly move its mail away.
 */
export async function updateMyDetails(ctx: AppContext, me: Principal, changes: MyDetailsUpdate): Promise<CurrentUser> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    const before = await getCurrentUser(trx, me.id);
    const changed = MY_DETAILS_FIELDS.filter((field) => changes[field] !== undefined && changes[field] !== before[field]);
    if (changed.length === 0) return before;
    const pick = (source: Partial<Record<(typeof MY_DETAILS_FIELDS)[number], string | null>>) =>
      Object.fromEntries(changed.map((field) => [field, source[field] ?? null]));
    await trx
      .updateTable('users')
      .set({ ...pick(changes), updated_at: at })
      .where('id', '=', me.id)
      .execute();
    await recordAudit(trx, { actorId: me.id, actor: me.username, action: 'user.details_updated', entity: 'user', entityId: me.id, before: pick(before), after: pick(changes), at });
    if (changed.includes('email') && before.email) {
      await queueEmail(
        ctx,
        trx,
        { email: before.email, name: before.first_name ?? before.username },
        {
          title: 'Your e-mail address was changed',
          body: `The e-mail address of your blood bank account "${before.username}" was changed to ${changes.email}. The bank's messages go there from now on. If you did not change it, please contact the blood bank at once.`,
          path: before.userType === 'donor' ? '/donor/donor-dashboard' : '/patient/patient-dashboard',
        },
        at,
        'You get this e-mail because it was the address of your account at the blood bank.',
      );
    }
    return getCurrentUser(trx, me.id);
  });
}
