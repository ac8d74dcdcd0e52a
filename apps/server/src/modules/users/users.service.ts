import { MY_DETAILS_FIELDS, MY_DETAILS_MESSAGES, userTypeOf, type CurrentUser, type MyDetailsUpdate } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { invalidFields, notFound, unauthorized } from '../../errors';
import { SESSION_INVALID, type Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { confirmCurrentPassword } from '../auth/password-check';
import { endOldAddress } from './email-change';
import { findUserProfile, lockAccount } from './users.repository';

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
 * after of exactly those); an edit that changes nothing writes nothing. The e-mail address is where
 * reset links go, so changing it needs the current password (counted as a sign-in attempt: a stolen
 * session cannot guess it), ends the reset links sent to the old address, and is told to the old
 * address.
 */
export async function updateMyDetails(ctx: AppContext, me: Principal, changes: MyDetailsUpdate, clientAddress: string): Promise<CurrentUser> {
  const stored = await getCurrentUser(ctx.db, me.id);
  const passwordChecked = changes.email !== undefined && changes.email !== stored.email;
  if (passwordChecked) await confirmCurrentPassword(ctx, me.username, changes.current_password, clientAddress);
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    // Two edits at once (two tabs): each compares against what the other left. A password reset
    // that ended this session while the password above was checked wins: its new password is the
    // owner's, and the ended session must not re-point the reset e-mails.
    const account = await lockAccount(trx, ctx.engine, me.id);
    if (account?.token_version !== me.sessionVersion) throw unauthorized(SESSION_INVALID);
    const before = await getCurrentUser(trx, me.id);
    const changed = MY_DETAILS_FIELDS.filter((field) => changes[field] !== undefined && changes[field] !== before[field]);
    if (changed.length === 0) return before;
    // The address changed meanwhile (another tab, another instance), so this edit now changes it
    // too: not without the password, which was not asked for when the address was the same.
    if (changed.includes('email') && !passwordChecked) throw invalidFields({ current_password: MY_DETAILS_MESSAGES.passwordNeeded });
    const pick = (source: Partial<Record<(typeof MY_DETAILS_FIELDS)[number], string | null>>) =>
      Object.fromEntries(changed.map((field) => [field, source[field] ?? null]));
    await trx
      .updateTable('users')
      .set({ ...pick(changes), updated_at: at })
      .where('id', '=', me.id)
      .execute();
    await recordAudit(trx, { actorId: me.id, actor: me.username, action: 'user.details_updated', entity: 'user', entityId: me.id, before: pick(before), after: pick(changes), at });
    if (changed.includes('email')) {
      const names = { id: me.id, username: before.username, first_name: before.first_name, userType: before.userType };
      await endOldAddress(ctx, trx, { ...names, oldEmail: before.email, newEmail: changes.email! }, 'owner', at);
    }
    return getCurrentUser(trx, me.id);
  });
}
