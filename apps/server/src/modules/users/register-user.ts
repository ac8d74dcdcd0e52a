import fs from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES } from '@bloodbank/shared/constants';
import type { Registration, RegistrationResponse } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { conflict } from '../../errors';
import { hashPassword } from '../../lib/passwords';
import { avatarDirectory, storeProfilePicture, validateProfilePicture } from '../../lib/uploads';
import { recordActivity } from '../activity/activity.repository';
import { insertPatientDetails, insertUser, usernameKeyOf, usernameTaken } from './users.repository';

/**
 * POST /auth/register (PRODUCT.md 3.1): a donor or a patient creates their account; admins never
 * do (users/admin-accounts.ts). The fields and their messages are checked by the body schema; here:
 * the username is unique whatever its case, the password is stored only as a hash, and a profile
 * picture is accepted only when its content is a JPEG, PNG or WebP image.
 */

const usernameExists = () =>
  conflict(MESSAGES.usernameExists, 'username_taken', { errors: { username: MESSAGES.usernameExists } });

export async function registerUser(
  ctx: AppContext,
  input: Registration,
  profilePicture: Buffer | undefined,
): Promise<RegistrationResponse> {
  // Case-insensitive: "Asha" and "asha" are one username.
  const usernameKey = usernameKeyOf(input.username);
  if (await usernameTaken(ctx.db, usernameKey)) throw usernameExists();

  const picture = profilePicture ? await validateProfilePicture(profilePicture) : undefined;
  const passwordHash = await hashPassword(input.password);
  const storedPicture = picture && profilePicture ? await storeProfilePicture(ctx.config.dataDir, profilePicture, picture.ext) : null;

  const at = ctx.clock.now().toISOString();
  try {
    const userId = await ctx.writes.run(async (trx) => {
      const id = await insertUser(trx, {
        username: input.username,
        username_key: usernameKey,
        password_hash: passwordHash,
        role: input.user_type === 'donor' ? 'DONOR' : 'PATIENT',
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        bloodgroup: input.bloodgroup,
        address: input.address,
        mobile: input.mobile,
        profile_pic: storedPicture,
        created_at: at,
        updated_at: at,
      });
      if (input.user_type === 'patient') {
        await insertPatientDetails(trx, { user_id: id, disease: input.disease, age: input.age, doctorname: input.doctorname });
      }
      await recordActivity(trx, { userId: id, kind: 'account_created', message: 'Welcome! Your account was created.', at });
      return id;
    });
    return { user_id: userId, user_type: input.user_type, username: input.username };
  } catch (error) {
    if (storedPicture) await fs.rm(path.join(avatarDirectory(ctx.config.dataDir), storedPicture), { force: true });
    // Two registrations of one name at once: the unique index decides, the loser gets the same answer.
    if (isUniqueViolation(error)) throw usernameExists();
    throw error;
  }
}
