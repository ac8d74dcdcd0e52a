import { TokenResponseSchema, type LoginForm, type TokenResponse } from '@bloodbank/shared/auth';
import { apiRequest } from '@/lib/api-client';

/** POST /api/auth/token: OAuth2 password style, so the body is form-encoded. */
export function createToken(credentials: LoginForm): Promise<TokenResponse> {
  return apiRequest('/auth/token', {
    method: 'POST',
    body: { form: { username: credentials.username, password: credentials.password } },
    schema: TokenResponseSchema,
    auth: false,
  });
}
