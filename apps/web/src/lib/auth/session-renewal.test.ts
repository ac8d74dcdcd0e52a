import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, tokenFor } from '@/test/mock-api';
import { isDueForRenewal, watchActivityForRenewal } from './session-renewal';

/** A token's shape with these times (seconds): only its payload is read on this side. */
function tokenWith(issuedAt: number, expiresAt: number): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256' })}.${part({ sub: '7', iat: issuedAt, exp: expiresAt })}.signature`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('renewing the session while its user is at work', () => {
  it("is due past half the token's life, not before", () => {
    const now = nowSeconds();
    expect(isDueForRenewal(tokenWith(now - 7 * 3600, now + 5 * 3600))).toBe(true);
    expect(isDueForRenewal(tokenWith(now - 5 * 3600, now + 7 * 3600))).toBe(false);
    expect(isDueForRenewal('not-a-token')).toBe(false);
  });

  it('renews a token past half its life at the next key pressed, once, with the token it had', async () => {
    const old = tokenWith(nowSeconds() - 7 * 3600, nowSeconds() + 5 * 3600);
    localStorage.setItem('token', old);
    const renewed = { ...tokenFor('donor'), access_token: 'renewed-token' };
    const api = mockApi({ 'POST /api/auth/renew': () => jsonResponse(200, renewed) });
    const renew = vi.fn();
    stop = watchActivityForRenewal(renew);

    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b' }));

    await waitFor(() => expect(renew).toHaveBeenCalledWith(renewed));
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.headers.get('authorization')).toBe(`Bearer ${old}`);
  });

  it('leaves a fresh token alone, and a tab nobody touches', async () => {
    localStorage.setItem('token', tokenWith(nowSeconds() - 60, nowSeconds() + 12 * 3600));
    const api = mockApi({});
    stop = watchActivityForRenewal(vi.fn());
    window.dispatchEvent(new Event('pointerdown'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requests).toHaveLength(0);
  });

  it('ends nothing when the server will not renew (a session older than a week)', async () => {
    localStorage.setItem('token', tokenWith(nowSeconds() - 7 * 3600, nowSeconds() + 5 * 3600));
    const onUnauthorized = vi.fn();
    const { onUnauthorized: listen } = await import('../api-client');
    const unlisten = listen(onUnauthorized);
    const api = mockApi({
      'POST /api/auth/renew': () =>
        jsonResponse(403, { detail: 'This session started more than 7 days ago' }),
    });
    const renew = vi.fn();
    stop = watchActivityForRenewal(renew);
    window.dispatchEvent(new Event('pointerdown'));
    await waitFor(() => expect(api.requests).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    unlisten();
    expect(renew).not.toHaveBeenCalled();
    expect(onUnauthorized).not.toHaveBeenCalled();
    // Refused once: not asked again for this token, however busy its user.
    await new Promise((resolve) => setTimeout(resolve, 10));
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 120_000);
    window.dispatchEvent(new Event('wheel'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requests).toHaveLength(1);
  });

  it('looks at a short-lived token more often than once a minute, and counts scrolling as work', async () => {
    // TOKEN_TTL=2m: due at one minute, looked at every 30 s.
    const issued = nowSeconds() - 70;
    localStorage.setItem('token', tokenWith(issued, issued + 120));
    const api = mockApi({ 'POST /api/auth/renew': () => jsonResponse(200, tokenFor('donor')) });
    stop = watchActivityForRenewal(vi.fn());
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    window.dispatchEvent(new Event('wheel'));
    await waitFor(() => expect(api.requests).toHaveLength(1));
    localStorage.setItem('token', tokenWith(issued, issued + 120));
    vi.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    window.dispatchEvent(new Event('wheel'));
    await waitFor(() => expect(api.requests).toHaveLength(2));
  });
});
