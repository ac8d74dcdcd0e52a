import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockApi, sampleUser, tokenFor } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { afterSignInPath, LoginPage } from './login-page';

const patientUser = {
  ...sampleUser,
  userId: 8,
  userType: 'patient' as const,
  username: 'ravi',
  first_name: 'Ravi',
};

async function fillAndSubmit(
  user: ReturnType<typeof renderScreen>['user'],
  username: string,
  password: string,
) {
  await user.type(screen.getByLabelText(/username/i), username);
  await user.type(screen.getByLabelText(/^password/i), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginPage', () => {
  it('shows the spec messages for empty fields and sends nothing', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<LoginPage userType="donor" />);

    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    // The password field is marked invalid like the others, and its message is its description.
    expect(screen.getByLabelText(/^username/i)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^password/i)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^password/i)).toHaveAccessibleDescription('Password is required');
    expect(api.requests).toHaveLength(0);
  });

  it('signs a donor in with a form-encoded body and opens the donor dashboard', async () => {
    const api = mockApi({
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('donor')),
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
    });
    const { user } = renderScreen(<LoginPage userType="donor" />, { path: '/donor/donorlogin' });

    await fillAndSubmit(user, 'asha', 'secret1');

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donor-dashboard');
    const tokenRequest = api.requests[0];
    expect(tokenRequest?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(String(tokenRequest?.body)).toBe('username=asha&password=secret1');
    // The fresh token is checked before it is stored.
    expect(api.requests[1]?.headers.get('authorization')).toBe('Bearer token-donor-7');
    expect(localStorage.getItem('token')).toBe('token-donor-7');
    expect(localStorage.getItem('userType')).toBe('donor');
    expect(localStorage.getItem('userId')).toBe('7');
  });

  it('sends one sign-in for a double-click on Login', async () => {
    const token = deferred<Response>();
    const api = mockApi({
      'POST /api/auth/token': () => token.promise,
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
    });
    const { user } = renderScreen(<LoginPage userType="donor" />, { path: '/donor/donorlogin' });
    await user.type(screen.getByLabelText(/username/i), 'asha');
    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.dblClick(screen.getByRole('button', { name: 'Login' }));
    token.resolve(jsonResponse(200, tokenFor('donor')));

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donor-dashboard');
    expect(api.requests.filter((request) => request.path === '/api/auth/token')).toHaveLength(1);
  });

  it('shows the server detail, and clears it when the user tries again', async () => {
    const secondAttempt = deferred<Response>();
    let attempts = 0;
    mockApi({
      'POST /api/auth/token': () => {
        attempts += 1;
        return attempts === 1
          ? jsonResponse(401, { detail: 'Invalid username or password' })
          : secondAttempt.promise;
      },
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
    });
    const { user } = renderScreen(<LoginPage userType="donor" />);

    await fillAndSubmit(user, 'asha', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');

    await user.click(screen.getByRole('button', { name: 'Login' }));
    const busyButton = await screen.findByRole('button', { name: 'Logging in...' });
    expect(busyButton).toBeDisabled();
    expect(screen.queryByText('Invalid username or password')).not.toBeInTheDocument();

    secondAttempt.resolve(jsonResponse(200, tokenFor('donor')));
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donor-dashboard');
  });

  it('falls back to the spec message when the server cannot be reached', async () => {
    mockApi({
      'POST /api/auth/token': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { user } = renderScreen(<LoginPage userType="patient" />);

    await fillAndSubmit(user, 'ravi', 'secret1');

    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Please try again.');
  });

  it('refuses a donor account on the patient login page without signing in', async () => {
    const api = mockApi({
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('donor')),
    });
    const { user } = renderScreen(<LoginPage userType="patient" />);

    await fillAndSubmit(user, 'asha', 'secret1');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This is a donor account. Please use the Donor Login page to sign in.',
    );
    expect(localStorage.getItem('token')).toBeNull();
    expect(api.requests.map((request) => request.path)).toEqual(['/api/auth/token']);
    expect(screen.queryByTestId('current-path')).not.toBeInTheDocument();
  });

  it('takes a patient to the patient dashboard', async () => {
    mockApi({
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('patient', 8)),
      'GET /api/users/me': () => jsonResponse(200, patientUser),
    });
    const { user } = renderScreen(<LoginPage userType="patient" />);

    await fillAndSubmit(user, 'ravi', 'secret1');

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/patient/patient-dashboard');
  });

  it('offers the sign-up link on the donor and patient pages, not on the admin page', () => {
    mockApi({});
    const { unmount } = renderScreen(<LoginPage userType="donor" />);
    expect(screen.getByRole('heading', { name: 'Donor Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register here' })).toHaveAttribute('href', '/donor/donorsignup');
    unmount();

    const patientPage = renderScreen(<LoginPage userType="patient" />);
    expect(screen.getByRole('heading', { name: 'Patient Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register here' })).toHaveAttribute(
      'href',
      '/patient/patientsignup',
    );
    patientPage.unmount();

    renderScreen(<LoginPage userType="admin" />);
    expect(screen.getByRole('heading', { name: 'Admin Login' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register here' })).not.toBeInTheDocument();
  });

  it('confirms a fresh registration', async () => {
    mockApi({});
    const { router } = renderScreen(<LoginPage userType="donor" />, {
      path: '/donor/donorlogin',
      initialPath: '/',
    });
    await router.navigate('/donor/donorlogin', { state: { registered: true } });
    // The live region is on the page empty first, and the message is put into it: one inserted with
    // its text already in it is often not read.
    const region = await screen.findByRole('status');
    expect(region).toBeEmptyDOMElement();
    await waitFor(() =>
      expect(region).toHaveTextContent('Registration successful. Please log in with your new account.'),
    );
  });

  it('offers a signed-in user their dashboard instead of the login form, or a log-out', async () => {
    localStorage.setItem('token', 'token-donor-7');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '7');
    mockApi({ 'GET /api/users/me': () => jsonResponse(200, sampleUser) });
    const { user } = renderScreen(<LoginPage userType="patient" />, { path: '/patient/patientlogin' });

    expect(await screen.findByText('You are signed in as Asha, a donor.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my dashboard' })).toHaveAttribute(
      'href',
      '/donor/donor-dashboard',
    );

    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe("an e-mail's link: the login page with ?next=", () => {
  const donate = '/donor/donorlogin?next=%2Fdonor%2Fdonate';

  it('opens the linked page after the login', async () => {
    mockApi({
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('donor')),
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
    });
    const { user } = renderScreen(<LoginPage userType="donor" />, {
      path: '/donor/donorlogin',
      initialPath: donate,
    });
    await fillAndSubmit(user, 'asha', 'secret1');
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donate');
  });

  it('opens it at once for a donor signed in already', async () => {
    localStorage.setItem('token', 'token-donor-7');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '7');
    mockApi({ 'GET /api/users/me': () => jsonResponse(200, sampleUser) });
    renderScreen(<LoginPage userType="donor" />, { path: '/donor/donorlogin', initialPath: donate });
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donate');
  });

  it("never opens another role's page or another site", async () => {
    localStorage.setItem('token', 'token-donor-7');
    localStorage.setItem('userType', 'donor');
    localStorage.setItem('userId', '7');
    mockApi({ 'GET /api/users/me': () => jsonResponse(200, sampleUser) });
    // A donor on the patients' login page: the usual choice, not the patient's page.
    const patientLink = renderScreen(<LoginPage userType="patient" />, {
      path: '/patient/patientlogin',
      initialPath: '/patient/patientlogin?next=%2Fpatient%2Fmake-request',
    });
    expect(await screen.findByText('You are signed in as Asha, a donor.')).toBeInTheDocument();
    patientLink.unmount();
    renderScreen(<LoginPage userType="donor" />, {
      path: '/donor/donorlogin',
      initialPath: '/donor/donorlogin?next=%2F%2Fevil.example%2Fdonor',
    });
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donor-dashboard');
  });
});

describe('afterSignInPath', () => {
  it("goes back to the page a session expired on, when it is of the role's own app", () => {
    expect(afterSignInPath('DONOR', '/donor/donate?x=1')).toBe('/donor/donate?x=1');
    expect(afterSignInPath('ADMIN', '/admin-request')).toBe('/admin-request');
    expect(afterSignInPath('PATIENT', '/notifications')).toBe('/notifications');
    // Another role's page, nothing, or an address outside the app: the dashboard.
    expect(afterSignInPath('PATIENT', '/donor/donate')).toBe('/patient/patient-dashboard');
    expect(afterSignInPath('DONOR', undefined)).toBe('/donor/donor-dashboard');
    expect(afterSignInPath('DONOR', '//evil.example/donor')).toBe('/donor/donor-dashboard');
  });
});
