import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockApi, sampleUser, tokenFor } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { PreferencesScreen } from './preferences-screen';

/** Stores a donor's session, so the app asks GET /api/users/me. */
function signInAsDonor() {
  localStorage.setItem('token', 'token-donor-7');
  localStorage.setItem('userType', 'donor');
  localStorage.setItem('userId', '7');
}

const PREFERENCES = { email_notifications: true, callouts: true };

describe('Your profile: correcting your own details (PATCH /api/users/me)', () => {
  it('edits the contact details, sends only what changed, and shows the saved details at once', async () => {
    signInAsDonor();
    const api = mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
      'PATCH /api/users/me': (request) => jsonResponse(200, { ...sampleUser, ...(request.json() as object) }),
    });
    const { user } = renderScreen(<PreferencesScreen />);
    const account = await screen.findByRole('heading', { name: 'Account' });
    const card = account.closest('.mantine-Card-root') as HTMLElement;
    expect(card).toHaveTextContent('asha@example.com');

    await user.click(within(card).getByRole('button', { name: 'Edit Details' }));
    const form = screen.getByRole('form', { name: 'Edit your details' });
    // The keyboard goes on in the form.
    expect(within(form).getByLabelText(/^first name/i)).toHaveFocus();
    // The blood group is the laboratory's: not offered.
    expect(within(form).queryByLabelText(/blood group/i)).not.toBeInTheDocument();
    expect(within(form).queryByLabelText(/current password/i)).not.toBeInTheDocument();
    const email = within(form).getByLabelText(/^email/i);
    await user.clear(email);
    await user.type(email, 'asha.new@example.org');
    // A new address needs the current password, asked before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Save Details' }));
    expect(
      await within(form).findByText('Enter your current password to change your e-mail address'),
    ).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'PATCH')).toBe(false);
    await user.type(within(form).getByLabelText(/current password/i), 'secret-123');
    await user.click(within(form).getByRole('button', { name: 'Save Details' }));

    expect(
      await within(card).findByText('Saved. The blood bank uses your new details from now on.'),
    ).toBeInTheDocument();
    expect(card).toHaveTextContent('asha.new@example.org');
    // Back where the keyboard was.
    expect(within(card).getByRole('button', { name: 'Edit Details' })).toHaveFocus();
    const patch = api.requests.find(
      (request) => request.method === 'PATCH' && request.path === '/api/users/me',
    );
    expect(patch?.json()).toEqual({ email: 'asha.new@example.org', current_password: 'secret-123' });
  });

  it("checks each field with the registration messages before sending, and shows the server's field message", async () => {
    signInAsDonor();
    const api = mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
      'PATCH /api/users/me': () =>
        jsonResponse(422, { detail: 'Validation failed', errors: { address: 'Address is required' } }),
    });
    const { user } = renderScreen(<PreferencesScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit Details' }));
    const form = screen.getByRole('form', { name: 'Edit your details' });
    const mobile = within(form).getByLabelText(/^mobile number/i);
    await user.clear(mobile);
    await user.type(mobile, '12345');
    await user.click(within(form).getByRole('button', { name: 'Save Details' }));
    expect(await within(form).findByText('Please enter a valid 10-digit mobile number')).toBeInTheDocument();
    expect(mobile).toHaveFocus();
    expect(api.requests.some((request) => request.method === 'PATCH')).toBe(false);

    await user.clear(mobile);
    await user.type(mobile, '9123456780');
    await user.click(within(form).getByRole('button', { name: 'Save Details' }));
    expect(await within(form).findByText('Address is required')).toBeInTheDocument();
    // Nothing typed is lost: the form stays open with the new number.
    expect(mobile).toHaveValue('9123456780');
  });

  it('says "Your current password is not correct" once, on the field, which is marked invalid', async () => {
    signInAsDonor();
    mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
      // The server's shape: `detail` repeats the field's message (apps/server/src/errors.ts invalidFields).
      'PATCH /api/users/me': () =>
        jsonResponse(422, {
          detail: 'Your current password is not correct',
          code: 'validation_failed',
          errors: { current_password: 'Your current password is not correct' },
        }),
    });
    const { user } = renderScreen(<PreferencesScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit Details' }));
    const form = screen.getByRole('form', { name: 'Edit your details' });
    const email = within(form).getByLabelText(/^email/i);
    await user.clear(email);
    await user.type(email, 'asha.new@example.org');
    const password = within(form).getByLabelText(/current password/i);
    expect(password).toHaveAttribute('aria-invalid', 'false');
    await user.type(password, 'wrong-one');
    await user.click(within(form).getByRole('button', { name: 'Save Details' }));

    expect(await within(form).findByText('Your current password is not correct')).toBeInTheDocument();
    expect(within(form).getAllByText('Your current password is not correct')).toHaveLength(1);
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(/Your current password is not correct/);
    expect(password).toHaveFocus();
  });
});

describe('Your profile: the notification switches', () => {
  it('keeps the switch just pressed focusable while it saves (busy, not disabled), and ignores presses meanwhile', async () => {
    signInAsDonor();
    const answer = deferred<Response>();
    let stored = PREFERENCES;
    const api = mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, stored),
      'PATCH /api/users/me/preferences': () => answer.promise,
    });
    const { user } = renderScreen(<PreferencesScreen />);

    const email = await screen.findByRole('switch', { name: /^E-mail me these notifications/ });
    await user.click(email);

    expect(await screen.findByText('Saving…')).toBeInTheDocument();
    expect(email).toHaveFocus();
    expect(email).toBeEnabled();
    expect(email).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard(' ');
    await user.click(screen.getByRole('switch', { name: /^Tell me when my blood group is needed/ }));
    const patches = () => api.requests.filter((request) => request.method === 'PATCH');
    expect(patches()).toHaveLength(1);

    stored = { ...PREFERENCES, email_notifications: false };
    answer.resolve(jsonResponse(200, stored));
    expect(
      await screen.findByText('Saved. You will no longer get e-mails; the bell keeps every message.'),
    ).toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-disabled');
    expect(patches().map((request) => request.json())).toEqual([{ email_notifications: false }]);
  });
});

describe('Your profile: changing your password (POST /api/users/me/password)', () => {
  it('checks the fields before sending, keeps this device signed in with the new token, and says the others were signed out', async () => {
    signInAsDonor();
    const api = mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
      'POST /api/users/me/password': () =>
        jsonResponse(200, { ...tokenFor('donor'), access_token: 'token-after-change' }),
    });
    const { user } = renderScreen(<PreferencesScreen />);
    const heading = await screen.findByRole('heading', { name: 'Password' });
    const card = heading.closest('.mantine-Card-root') as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'Change Password' }));
    const form = screen.getByRole('form', { name: 'Change your password' });
    const current = within(form).getByLabelText(/^current password/i);
    expect(current).toHaveFocus();

    // Registration's messages, before anything is sent.
    await user.type(current, 'old-secret');
    await user.type(within(form).getByLabelText(/^new password/i), 'old-secret');
    await user.type(within(form).getByLabelText(/^confirm new password/i), 'other');
    await user.click(within(form).getByRole('button', { name: 'Save Password' }));
    expect(
      await within(form).findByText('Choose a password different from your current one'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    const fresh = within(form).getByLabelText(/^new password/i);
    await user.clear(fresh);
    await user.type(fresh, 'new-secret-1');
    const confirm = within(form).getByLabelText(/^confirm new password/i);
    await user.clear(confirm);
    await user.type(confirm, 'new-secret-1');
    await user.click(within(form).getByRole('button', { name: 'Save Password' }));

    expect(
      await within(card).findByText(
        'Saved. Your password is changed, and every other device was signed out.',
      ),
    ).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Change Password' })).toHaveFocus();
    const sent = api.requests.find((request) => request.path === '/api/users/me/password');
    expect(sent?.json()).toEqual({ current_password: 'old-secret', new_password: 'new-secret-1' });
    // The old token was ended by the change: this device goes on with the new one.
    expect(localStorage.getItem('token')).toBe('token-after-change');
    expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
  });

  it("shows the server's refusal on the current password and keeps what was typed", async () => {
    signInAsDonor();
    mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
      'POST /api/users/me/password': () =>
        jsonResponse(422, {
          detail: 'Your current password is not correct',
          code: 'validation_failed',
          errors: { current_password: 'Your current password is not correct' },
        }),
    });
    const { user } = renderScreen(<PreferencesScreen />);
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));
    const form = screen.getByRole('form', { name: 'Change your password' });
    await user.type(within(form).getByLabelText(/^current password/i), 'wrong-one');
    await user.type(within(form).getByLabelText(/^new password/i), 'new-secret-1');
    await user.type(within(form).getByLabelText(/^confirm new password/i), 'new-secret-1');
    await user.click(within(form).getByRole('button', { name: 'Save Password' }));
    expect(await within(form).findAllByText('Your current password is not correct')).toHaveLength(1);
    expect(within(form).getByLabelText(/^current password/i)).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText(/^new password/i)).toHaveValue('new-secret-1');
    expect(localStorage.getItem('token')).toBe('token-donor-7');
  });

  it('gives staff their account and password, and no e-mail choices', async () => {
    localStorage.setItem('token', 'token-admin-1');
    localStorage.setItem('userType', 'admin');
    localStorage.setItem('userId', '1');
    const api = mockApi({
      'GET /api/users/me': () =>
        jsonResponse(200, {
          ...sampleUser,
          userId: 1,
          userType: 'admin',
          username: 'demo_admin',
          email: null,
          bloodgroup: null,
        }),
    });
    renderScreen(<PreferencesScreen />);
    expect(await screen.findByText('demo_admin')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Password' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Details' })).not.toBeInTheDocument();
    // The server answers staff 403 there: never asked.
    expect(api.requests.some((request) => request.path === '/api/users/me/preferences')).toBe(false);
  });
});

describe('Your profile: details typed before a session ended', () => {
  it('opens the form again with them, never with a password, and Cancel forgets them', async () => {
    signInAsDonor();
    sessionStorage.setItem(
      'draft:7:my-details',
      JSON.stringify({ address: '9 New Road', mobile: '9123456780' }),
    );
    mockApi({
      'GET /api/users/me': () => jsonResponse(200, sampleUser),
      'GET /api/users/me/preferences': () => jsonResponse(200, PREFERENCES),
    });
    const { user } = renderScreen(<PreferencesScreen />);

    const form = await screen.findByRole('form', { name: 'Edit your details' });
    expect(within(form).getByText(/What you typed before is filled in again/)).toBeInTheDocument();
    expect(within(form).getByLabelText(/^address/i)).toHaveValue('9 New Road');
    expect(within(form).getByLabelText(/^mobile number/i)).toHaveValue('9123456780');
    expect(within(form).getByLabelText(/^first name/i)).toHaveValue('Asha');

    await user.type(within(form).getByLabelText(/^email/i), 'x');
    await user.type(await within(form).findByLabelText(/current password/i), 'secret-123');
    expect(sessionStorage.getItem('draft:7:my-details')).not.toContain('secret-123');

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(sessionStorage.getItem('draft:7:my-details')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Edit your details' })).not.toBeInTheDocument();
  });
});
