import {
  RegistrationResponseSchema,
  type Registration,
  type RegistrationResponse,
} from '@bloodbank/shared/auth';
import { apiRequest, type RequestBody } from '@/lib/api-client';

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
