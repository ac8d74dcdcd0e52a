import { userTypeOf, type CurrentUser } from '@bloodbank/shared/auth';
import type { Database } from '../../db/database';
import { notFound } from '../../errors';
import { findUserProfile } from './users.repository';

export async function getCurrentUser(db: Database, userId: number): Promise<CurrentUser> {
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
