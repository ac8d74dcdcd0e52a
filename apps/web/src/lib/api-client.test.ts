import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { deferred, jsonResponse, mockApi } from '@/test/mock-api';
import { ApiError, apiRequest, errorMessage, onUnauthorized, replacingToken } from './api-client';

describe('apiRequest', () => {
  it('calls /api with the stored bearer token and checks the body against the schema', async () => {
    localStorage.setItem('token', 'abc');
    const api = mockApi({ 'GET /api/things': () => jsonResponse(200, { count: 3 }) });

    const result = await apiRequest('/things', {
      schema: z.object({ count: z.number() }),
      query: { page: 2, q: undefined },
    });

    expect(result).toEqual({ count: 3 });
    expect(api.requests[0]?.headers.get('authorization')).toBe('Bearer abc');
    expect(api.fetchMock.mock.calls[0]?.[0]).toBe('/api/things?page=2');
  });

  it('sends no token when told not to', async () => {
    localStorage.setItem('token', 'abc');
    const api = mockApi({ 'POST /api/auth/token': () => jsonResponse(200, {}) });

    await apiRequest('/auth/token', { body: { form: { username: 'a b', password: 'p&q' } }, auth: false });

    expect(api.requests[0]?.headers.has('authorization')).toBe(false);
    expect(String(api.requests[0]?.body)).toBe('username=a+b&password=p%26q');
  });

  it('throws an ApiError with the status, detail and field errors of the server', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(422, {
          detail: 'Invalid email address',
          code: 'validation_failed',
          errors: { email: 'Invalid email address' },
        }),
    });

    const error = await apiRequest('/auth/register', { body: { json: {} } }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      detail: 'Invalid email address',
      code: 'validation_failed',
      errors: { email: 'Invalid email address' },
    });
  });

  it('reports an unreachable server as status 0 with no detail', async () => {
    mockApi({ 'GET /api/stats': () => Promise.reject(new TypeError('Failed to fetch')) });

    const error = await apiRequest('/stats').catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 0, detail: undefined });
    // The form's own words, then what to do about it.
    expect(errorMessage(error, 'Fallback')).toBe(
      'Fallback The blood bank could not be reached: please check your connection.',
    );
  });

  it('treats a body that breaks the contract as an error rather than passing it on', async () => {
    mockApi({ 'GET /api/stats': () => jsonResponse(200, { donors: 'many' }) });

    const error = await apiRequest('/stats', { schema: z.object({ donors: z.number() }) }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toMatchObject({ status: 200, code: 'unexpected_response' });
  });

  it('tells the listeners when the stored token is refused', async () => {
    localStorage.setItem('token', 'revoked');
    mockApi({ 'GET /api/users/me': () => jsonResponse(401, { detail: 'Not authenticated' }) });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);

    await apiRequest('/users/me').catch(() => undefined);
    stop();

    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('ends nothing when the refused token was replaced while the request ran (a password change renewed it)', async () => {
    localStorage.setItem('token', 'before-the-change');
    const answer = deferred<Response>();
    mockApi({ 'GET /api/notifications': () => answer.promise });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);

    const request = apiRequest('/notifications').catch((caught: unknown) => caught);
    localStorage.setItem('token', 'after-the-change');
    answer.resolve(jsonResponse(401, { detail: 'Not authenticated' }));
    expect(await request).toMatchObject({ status: 401 });
    stop();

    expect(listener).not.toHaveBeenCalled();
  });

  it('waits for a password change under way before a 401 to the old token ends the session', async () => {
    localStorage.setItem('token', 'before-the-change');
    mockApi({ 'GET /api/notifications': () => jsonResponse(401, { detail: 'Not authenticated' }) });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);

    // The change has ended the old token on the server; its answer (the new token) is still on its way.
    const changed = deferred<void>();
    const change = replacingToken(async () => {
      await changed.promise;
      localStorage.setItem('token', 'after-the-change');
    });
    const refused = apiRequest('/notifications').catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listener).not.toHaveBeenCalled();
    changed.resolve();
    await change;
    expect(await refused).toMatchObject({ status: 401 });
    expect(listener).not.toHaveBeenCalled();

    // A change that failed leaves the old token, which the 401 then ends.
    const failed = replacingToken(() => Promise.reject(new ApiError(0, undefined)));
    localStorage.setItem('token', 'still-the-old-one');
    const refusedAgain = apiRequest('/notifications').catch((caught: unknown) => caught);
    await failed.catch(() => undefined);
    await refusedAgain;
    stop();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
