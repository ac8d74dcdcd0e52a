import {
  RegistrationResponseSchema,
  type Registration,
  type RegistrationResponse,
} from '@bloodbank/shared/auth';
import { useRef } from 'react';
import { ApiError, apiRequest, type RequestBody } from '@/lib/api-client';
import { createToken } from './create-token';

/**
 * POST /api/auth/register. JSON without a picture; multipart with the picture as `profile_pic`
 * (the server validates both with the same schema).
 */
export function registerAccount(
  registration: Registration,
  picture: File | null,
): Promise<RegistrationResponse> {
  let body: RequestBody = { json: registration };
  if (picture) {
    const formData = new FormData();
    for (const [key, value] of Object.entries(registration)) formData.append(key, String(value));
    formData.append('profile_pic', picture, picture.name);
    body = { formData };
  }
  return apiRequest('/auth/register', {
    method: 'POST',
    body,
    schema: RegistrationResponseSchema,
    auth: false,
  });
}

/**
 * registerAccount, safe to send again after its answer was lost: the account may have been made.
 * Sent again, it answers "Username already exists", and the person (who never saw their account
 * made) chose another username and made a second account. So after a lost answer (the connection
 * failed: status 0), that 409 is checked by signing in with the same username and password: when
 * they work, the account is theirs, and the registration is done.
 */
export function useRegisterOnce() {
  const answerLost = useRef(false);
  return async (registration: Registration, picture: File | null): Promise<void> => {
    try {
      await registerAccount(registration, picture);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) answerLost.current = true;
      const taken = error instanceof ApiError && error.status === 409 && error.errors.username !== undefined;
      if (!(taken && answerLost.current)) throw error;
      // Theirs, and of the kind being registered: the same username and password may open the
      // person's patient account, which is no donor account.
      const mine = await createToken({
        username: registration.username,
        password: registration.password,
      }).then(
        (token) => token.user_type === registration.user_type,
        () => false,
      );
      if (!mine) throw error;
    }
    answerLost.current = false;
  };
}
