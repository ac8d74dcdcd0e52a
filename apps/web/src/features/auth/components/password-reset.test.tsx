import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_MESSAGES } from '@bloodbank/shared/notifications';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { ForgotPasswordRoute, ResetPasswordRoute } from '../routes';

describe('Forgot password', () => {
  it('checks the field with the shared rules and sends nothing until it is right', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<ForgotPasswordRoute />, { path: '/forgot-password' });
    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(PASSWORD_RESET_MESSAGES.usernameOrEmail)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Username or e-mail' }), 'asha@');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('sends a username as {username}, an address as {email}, and shows the server’s answer', async () => {
    const api = mockApi({
      'POST /api/auth/password-reset': () => jsonResponse(202, { detail: PASSWORD_RESET_MESSAGES.requested }),
    });
    const { user } = renderScreen(<ForgotPasswordRoute />, {
      path: '/forgot-password',
      initialPath: '/forgot-password?as=patient',
    });
    await user.type(
      await screen.findByRole('textbox', { name: 'Username or e-mail' }),
      '  asha@example.com ',
    );
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    const answer = await screen.findByRole('status');
    expect(answer).toHaveTextContent(PASSWORD_RESET_MESSAGES.requested);
    // The button that had focus is gone with the form: focus is on the answer, which is read out.
    await waitFor(() => expect(document.activeElement).toBe(answer));
    expect(api.requests.map((request) => request.json())).toEqual([{ email: 'asha@example.com' }]);
    expect(screen.getByRole('link', { name: 'Back to Patient Login' })).toHaveAttribute(
      'href',
      '/patient/patientlogin',
    );

    // Asking again keeps what was typed.
    await user.click(screen.getByRole('button', { name: 'ask again' }));
    const field = screen.getByRole('textbox', { name: 'Username or e-mail' });
    expect(field).toHaveValue('  asha@example.com ');
    await user.clear(field);
    await user.type(field, 'asha');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByRole('status');
    expect(api.requests.map((request) => request.json())).toEqual([
      { email: 'asha@example.com' },
      { username: 'asha' },
    ]);
  });

  it('shows "Too many reset requests" when the server refuses with 429', async () => {
    mockApi({
      'POST /api/auth/password-reset': () =>
        jsonResponse(429, { detail: PASSWORD_RESET_MESSAGES.tooMany, code: 'rate_limited' }),
    });
    const { user } = renderScreen(<ForgotPasswordRoute />, { path: '/forgot-password' });
    await user.type(await screen.findByRole('textbox', { name: 'Username or e-mail' }), 'asha');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many reset requests. Please try again later.',
    );
    // Without ?as= the way back offers each login, the donors' and patients' before the staff's.
    expect(screen.getByRole('link', { name: 'Donor Login' })).toHaveAttribute('href', '/donor/donorlogin');
    expect(screen.getByRole('link', { name: 'Admin Login' })).toHaveAttribute('href', '/admin/adminlogin');
    expect(screen.getAllByRole('link', { name: /Login$/ }).map((link) => link.textContent)).toEqual([
      'Donor Login',
      'Patient Login',
      'Admin Login',
    ]);
  });
});

describe('Reset password', () => {
  const open = (token = 'abc123') =>
    renderScreen(<ResetPasswordRoute />, {
      path: '/reset-password',
      initialPath: `/reset-password?token=${token}`,
    });

  it('uses registration’s password rules and its confirm-password rule', async () => {
    const api = mockApi({});
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Confirm new password/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests).toEqual([]);
  });

  it('sends the token and the password, then says the password was changed and links to the logins', async () => {
    const api = mockApi({
      'POST /api/auth/password-reset/confirm': () => new Response(null, { status: 204 }),
    });
    const { user } = open();
    await user.type(await screen.findByLabelText(/^New password/), 'new-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('status')).toHaveTextContent(/^Your password was changed\./);
    expect(api.requests.map((request) => request.json())).toEqual([
      { token: 'abc123', password: 'new-secret' },
    ]);
    expect(screen.getByRole('link', { name: 'Donor Login' })).toHaveAttribute('href', '/donor/donorlogin');
    expect(screen.getByRole('link', { name: 'Patient Login' })).toHaveAttribute(
      'href',
      '/patient/patientlogin',
    );
  });

  it('on 400 says the link is invalid or expired and offers a new one', async () => {
    mockApi({
      'POST /api/auth/password-reset/confirm': () =>
        jsonResponse(400, { detail: PASSWORD_RESET_MESSAGES.invalidToken }),
    });
    const { user } = open();
    await user.type(await screen.findByLabelText(/^New password/), 'new-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Ask for a new reset link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.queryByRole('button', { name: 'Set new password' })).not.toBeInTheDocument();
  });

  it('puts a password the server refuses (422) on its field', async () => {
    mockApi({
      'POST /api/auth/password-reset/confirm': () =>
        jsonResponse(422, {
          detail: 'Validation failed',
          errors: { password: 'Password must be at most 128 characters' },
        }),
    });
    const { user } = open();
    await user.type(await screen.findByLabelText(/^New password/), 'new-secret');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at most 128 characters')).toBeInTheDocument();
  });

  it('a link without a token is invalid at once', async () => {
    mockApi({});
    renderScreen(<ResetPasswordRoute />, { path: '/reset-password' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
  });
});
