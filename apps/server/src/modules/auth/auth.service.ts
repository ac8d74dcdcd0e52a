import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@bloodbank/shared/constants';
import { userTypeOf, type Registration, type RegistrationResponse, type TokenResponse } from '@bloodbank/shared/auth';
import type { AppContext } from '../../context';
import { nowIso } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { AppError, conflict, tooManyRequests, unauthorized } from '../../errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../lib/passwords';
import { avatarDirectory, storeProfilePicture, validateProfilePicture } from '../../lib/uploads';
import { recordActivity } from '../activity/activity.repository';
import {
  findUserForLogin,
  insertPatientDetails,
  insertUser,
  usernameKeyOf,
  usernameTaken,
} from '../users/users.repository';

const usernameExists = () =>
  conflict(MESSAGES.usernameExists, 'username_taken', { errors: { username: MESSAGES.usernameExists } });

export async function registerUser(
  ctx: AppContext,
  input: Registration,
  profilePicture: Buffer | undefined,
): Promise<RegistrationResponse> {
  const usernameKey = usernameKeyOf(input.username);
  if (await usernameTaken(ctx.db, usernameKey)) throw usernameExists();

  const picture = profilePicture ? await validateProfilePicture(profilePicture) : undefined;
  const passwordHash = await hashPassword(input.password);
  const storedPicture = picture && profilePicture ? await storeProfilePicture(ctx.config.dataDir, profilePicture, picture.ext) : null;

  const at = nowIso();
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

export async function signIn(
  ctx: AppContext,
  jwt: FastifyInstance['jwt'],
  credentials: { username: string; password: string },
  clientAddress: string,
): Promise<TokenResponse> {
  const usernameKey = usernameKeyOf(credentials.username);
  // Counted before the password is checked, so parallel guesses cannot slip past the limit.
  const attempt = await ctx.loginThrottle.begin(usernameKey, clientAddress);
  if (!attempt.allowed) {
    const waitSeconds = attempt.retryAfterSeconds;
    const minutes = Math.ceil(waitSeconds / 60);
    const error = tooManyRequests(
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
    throw new AppError(error.statusCode, error.detail, error.code, { retry_after_seconds: waitSeconds });
  }

  const user = await findUserForLogin(ctx.db, usernameKey);
  const passwordOk = user
    ? await verifyPassword(user.password_hash, credentials.password)
    : await verifyAgainstDummy(credentials.password);
  // One message whether the username or the password was wrong; the attempt stays counted.
  if (!user || !passwordOk) throw unauthorized(MESSAGES.invalidCredentials);
  await attempt.passwordAccepted();
  if (user.is_active !== 1) {
    throw unauthorized('This account has been deactivated. Please contact the blood bank.');
  }
  const accessToken = await jwt.sign(
    { sub: String(user.id), role: user.role, ver: user.token_version },
    { expiresIn: ctx.config.tokenTtl },
  );
  return { access_token: accessToken, token_type: 'bearer', user_type: userTypeOf(user.role), user_id: user.id };
}
