import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@bloodbank/shared/constants';
import { apiRequest } from '@/lib/api-client';
import { deferred, jsonResponse, mockApi, sampleUser, tokenFor } from '@/test/mock-api';
import { renderApp } from '@/test/render';

vi.mock('@/features/donor/routes', async () =>
  (await import('@/test/stub-area')).stubArea([
    'DonorDashboardRoute',
    'DonateBloodRoute',
    'GameDashboardRoute',
  ]),
);
vi.mock('@/features/patient/routes', async () =>
  (await import('@/test/stub-area')).stubArea(['PatientDashboardRoute', 'MakeRequestRoute']),
);
vi.mock('@/features/admin/routes', async () =>
  (await import('@/test/stub-area')).stubArea(['AdminDashboardRoute']),
);

const stats = { donors: 15, patients: 25, units: 50, donations: 30 };
const supply = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'].map((bloodgroup) => ({
  bloodgroup,
  level: 'good',
}));
/** What the home page asks for: its figures and the blood supply strip. */
const visitorHome = {
  'GET /api/stats': () => jsonResponse(200, stats),
  'GET /api/public/supply': () => jsonResponse(200, supply),
};
const admin = { ...sampleUser, userId: 1, userType: 'admin' as const, username: 'admin', first_name: null };
const patient = {
  ...sampleUser,
  userId: 9,
  userType: 'patient' as const,
  username: 'ravi',
  first_name: 'Ravi',
};

function signedInAs(user: typeof sampleUser | typeof admin | typeof patient) {
  localStorage.setItem('token', `token-${user.userId}`);
  localStorage.setItem('userType', user.userType);
  localStorage.setItem('userId', String(user.userId));
  return mockApi({
    'GET /api/users/me': () => jsonResponse(200, user),
    ...visitorHome,
  });
}

describe('routes and the route guard', () => {
  it.each([
    '/donor/donor-dashboard',
    '/donor/donate',
    '/donor/game',
    '/patient/patient-dashboard',
    '/patient/make-request',
    '/admin/admin-dashboard',
  ])('sends a signed-out visitor from %s to the home page', async (path) => {
    mockApi(visitorHome);
    const { router } = await renderApp(path);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a spinner while the stored session is checked, then the page', async () => {
    const me = deferred<Response>();
    localStorage.setItem('token', 'token-7');
    mockApi({ 'GET /api/users/me': () => me.promise });
    await renderApp('/donor/donor-dashboard');

    expect(await screen.findByText(/Checking your session/)).toBeInTheDocument();
    me.resolve(jsonResponse(200, sampleUser));

    expect(await screen.findByRole('heading', { level: 1, name: 'DonorDashboardRoute' })).toBeInTheDocument();
  });

  it('sends a donor on an admin page to the donor dashboard', async () => {
    signedInAs(sampleUser);
    const { router } = await renderApp('/admin/admin-dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'DonorDashboardRoute' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/donor/donor-dashboard');
  });

  it('sends a patient on a donor page to the patient dashboard', async () => {
    signedInAs(patient);
    const { router } = await renderApp('/donor/donate');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'PatientDashboardRoute' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/patient/patient-dashboard');
  });

  it('sends an admin on a patient page to the admin dashboard', async () => {
    signedInAs(admin);
    const { router } = await renderApp('/patient/make-request');

    expect(await screen.findByRole('heading', { level: 1, name: 'AdminDashboardRoute' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/admin-dashboard');
  });

  it('redirects /admin-dashboard to /admin/admin-dashboard', async () => {
    signedInAs(admin);
    const { router } = await renderApp('/admin-dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'AdminDashboardRoute' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/admin-dashboard');
  });

  it('shows the home page for an unknown path', async () => {
    mockApi(visitorHome);
    const { router } = await renderApp('/no/such/page');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps a stored token the server could not check (it was restarting): the other tabs share it', async () => {
    localStorage.setItem('token', 'still-good');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '7');
    const api = mockApi({
      'GET /api/users/me': () => jsonResponse(503, { detail: 'The service is briefly unavailable.' }),
      ...visitorHome,
    });
    await renderApp('/donor/donor-dashboard');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(api.requests.filter((request) => request.path === '/api/users/me').length).toBeGreaterThan(0),
    );
    expect(localStorage.getItem('token')).toBe('still-good');
  });

  it('clears a stored token the server refuses, silently', async () => {
    localStorage.setItem('token', 'expired');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '7');
    mockApi({
      'GET /api/users/me': () =>
        jsonResponse(401, { detail: 'Your session has expired or is no longer valid. Please log in again.' }),
      ...visitorHome,
    });
    const { router } = await renderApp('/donor/donor-dashboard');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(localStorage.getItem('userType')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a session the server ends while it is in use', () => {
  it('sends the user to their login page with why, and back to the page they were on once signed in', async () => {
    signedInAs(sampleUser);
    mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/donor/summary': () => jsonResponse(401, { detail: MESSAGES.sessionInvalid }),
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('donor')),
      ...visitorHome,
    });
    const { router, user } = await renderApp('/donor/donate?from=card');
    expect(await screen.findByRole('heading', { level: 1, name: 'DonateBloodRoute' })).toBeInTheDocument();

    // Any request of the signed-in app is refused: the token expired meanwhile.
    await apiRequest('/donor/summary').catch(() => undefined);

    expect(await screen.findByRole('heading', { name: 'Donor Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/donor/donorlogin');
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.sessionInvalid);
    expect(localStorage.getItem('token')).toBeNull();

    await user.type(screen.getByLabelText(/username/i), 'asha');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'DonateBloodRoute' })).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/donor/donate?from=card',
    );
  });

  it('says so in every tab when the session ends in another, and brings each back to its page; a sign-out there goes home', async () => {
    signedInAs(sampleUser);
    mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('donor')),
      ...visitorHome,
    });
    const { router, user } = await renderApp('/donor/donate');
    expect(await screen.findByRole('heading', { level: 1, name: 'DonateBloodRoute' })).toBeInTheDocument();

    // Another tab was told by the server that the session ended: the token goes, with no sign-out.
    localStorage.removeItem('token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', oldValue: 'token-7', newValue: null }));

    expect(await screen.findByRole('heading', { name: 'Donor Login' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.sessionInvalid);
    await user.type(screen.getByLabelText(/username/i), 'asha');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'DonateBloodRoute' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/donor/donate');

    // Someone signs out in another tab: announced first, then the token goes. Home, as after any sign-out.
    window.dispatchEvent(new StorageEvent('storage', { key: 'signedOut', oldValue: null, newValue: '1' }));
    localStorage.removeItem('token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', oldValue: 'token-7', newValue: null }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a session that ended on a page without a guard (the home page) sends no later visit to log in', async () => {
    sessionStorage.setItem('sessionExpired', JSON.stringify({ userType: 'donor', at: Date.now() - 60_000 }));
    mockApi(visitorHome);
    const { router } = await renderApp('/donor/donate');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a later visit while signed out lands on the home page again, as the spec says', async () => {
    sessionStorage.setItem('sessionExpired', JSON.stringify({ userType: 'donor', at: Date.now() }));
    mockApi(visitorHome);
    const first = await renderApp('/donor/donate');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/donor/donorlogin'));
    first.unmount();

    const second = await renderApp('/donor/donate');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/');
  });
});

describe('header', () => {
  it('offers a visitor Home, the Donor and Patient menus and the Admin link', async () => {
    mockApi(visitorHome);
    await renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });

    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin/adminlogin');

    // One click event, as a keyboard gives it: the press-and-release race of the menu's lazily
    // loaded code is header-menu.test.tsx's; under load user-event's separate pointer events could
    // straddle the code's arrival and toggle the menu twice.
    fireEvent.click(within(nav).getByRole('button', { name: 'Donor' }));
    expect(await screen.findByRole('menuitem', { name: 'Login' })).toHaveAttribute(
      'href',
      '/donor/donorlogin',
    );
    expect(screen.getByRole('menuitem', { name: 'Register' })).toHaveAttribute('href', '/donor/donorsignup');
  });

  it("puts focus on the new page's heading after a link is followed, so a screen reader reads where it is", async () => {
    mockApi(visitorHome);
    await renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const link = within(nav).getByRole('link', { name: 'Admin' });
    link.focus();
    fireEvent.click(link);

    const heading = await screen.findByRole('heading', { level: 1, name: 'Admin Login' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('shows a donor their links and a menu titled with their first name; Logout signs out and goes home', async () => {
    signedInAs(sampleUser);
    sessionStorage.setItem('draft:7:donate-blood', JSON.stringify({ disease: 'Asthma' }));
    const { user, router } = await renderApp('/donor/donor-dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });

    expect(await within(nav).findByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/donor/donor-dashboard',
    );
    expect(within(nav).getByRole('link', { name: 'Donate Blood' })).toHaveAttribute('href', '/donor/donate');
    expect(within(nav).queryByRole('button', { name: 'Donor' })).not.toBeInTheDocument();

    fireEvent.click(within(nav).getByRole('button', { name: 'Asha' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Give Blood, Give Life' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    // Half-typed forms go with the session on this device.
    expect(sessionStorage.getItem('draft:7:donate-blood')).toBeNull();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Donor' }),
    ).toBeInTheDocument();
  });

  it("forgets this tab's drafts when another tab signs out, but not when the session there only expired", async () => {
    signedInAs(sampleUser);
    sessionStorage.setItem('draft:7:donate-blood', JSON.stringify({ disease: 'Asthma' }));
    await renderApp('/donor/donor-dashboard');
    await screen.findByRole('navigation', { name: 'Main' });
    // The other tab's session expired: its token is gone, nothing more. The draft comes back after signing in again.
    localStorage.removeItem('token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', oldValue: 'token-7', newValue: null }));
    expect(sessionStorage.getItem('draft:7:donate-blood')).not.toBeNull();
    // The other tab signed out: on a shared phone the next person must not find the draft.
    window.dispatchEvent(new StorageEvent('storage', { key: 'signedOut', oldValue: null, newValue: '1' }));
    expect(sessionStorage.getItem('draft:7:donate-blood')).toBeNull();
  });

  it('forgets the drafts when another tab signs in as someone not yet known here', async () => {
    signedInAs(sampleUser);
    sessionStorage.setItem('draft:7:donate-blood', JSON.stringify({ disease: 'Asthma' }));
    await renderApp('/donor/donor-dashboard');
    await screen.findByRole('navigation', { name: 'Main' });
    // The new token has arrived, its user id not yet.
    localStorage.setItem('token', 'token-of-someone-else');
    localStorage.removeItem('userId');
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'token', oldValue: 'token-7', newValue: 'token-of-someone-else' }),
    );
    expect(sessionStorage.getItem('draft:7:donate-blood')).toBeNull();
  });

  it('titles the menu with the username when there is no first name', async () => {
    signedInAs(admin);
    await renderApp('/admin/admin-dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });

    expect(await within(nav).findByRole('button', { name: 'admin' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/admin/admin-dashboard',
    );
  });

  it('gives a patient Dashboard and Request Blood', async () => {
    signedInAs(patient);
    await renderApp('/patient/patient-dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });

    expect(await within(nav).findByRole('link', { name: 'Request Blood' })).toHaveAttribute(
      'href',
      '/patient/make-request',
    );
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/patient/patient-dashboard',
    );
  });
});
