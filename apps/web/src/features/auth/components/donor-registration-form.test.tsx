import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { DonorRegistrationForm } from './donor-registration-form';

type User = ReturnType<typeof renderScreen>['user'];

async function fillValidDonor(user: User) {
  await user.type(screen.getByLabelText(/first name/i), 'Asha');
  await user.type(screen.getByLabelText(/last name/i), 'Kumar');
  await user.type(screen.getByLabelText(/^email/i), 'asha@example.com');
  await user.type(screen.getByLabelText(/mobile number/i), '9876543210');
  await user.selectOptions(screen.getByLabelText(/blood group/i), 'O+');
  await user.type(screen.getByLabelText(/address/i), '12 Park Street');
  await user.type(screen.getByLabelText(/username/i), 'asha');
  await user.type(screen.getByLabelText(/^password/i), 'secret1');
  await user.type(screen.getByLabelText(/confirm password/i), 'secret1');
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Register' }));

describe('DonorRegistrationForm', () => {
  it('shows every required-field message of spec section 5 and sends nothing', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<DonorRegistrationForm />);

    await submit(user);

    for (const message of [
      'First name is required',
      'Last name is required',
      'Username is required',
      'Email is required',
      'Password is required',
      'Please confirm your password',
      'Blood group is required',
      'Mobile number is required',
      'Address is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(api.requests).toHaveLength(0);
  });

  it('keeps what was typed through a reload, but never the passwords', async () => {
    mockApi({});
    const first = renderScreen(<DonorRegistrationForm />);
    await fillValidDonor(first.user);
    first.unmount();

    renderScreen(<DonorRegistrationForm />);
    expect(await screen.findByText(/What you typed before is filled in again/)).toBeInTheDocument();
    expect(screen.getByLabelText(/first name/i)).toHaveValue('Asha');
    expect(screen.getByLabelText(/blood group/i)).toHaveValue('O+');
    expect(screen.getByLabelText(/username/i)).toHaveValue('asha');
    expect(screen.getByLabelText(/^password/i)).toHaveValue('');
    expect(screen.getByLabelText(/confirm password/i)).toHaveValue('');
    expect(sessionStorage.getItem('draft:visitor:donor-registration')).not.toContain('secret1');
  });

  it('checks the e-mail pattern, the 10-digit mobile, the password length and the confirmation', async () => {
    mockApi({});
    const { user } = renderScreen(<DonorRegistrationForm />);

    await user.type(screen.getByLabelText(/^email/i), 'asha@example');
    await user.type(screen.getByLabelText(/mobile number/i), '98765');
    await user.type(screen.getByLabelText(/^password/i), '12345');
    await user.type(screen.getByLabelText(/confirm password/i), '123456');
    await submit(user);

    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid 10-digit mobile number')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    // Marked invalid like the other fields.
    expect(screen.getByLabelText(/^email/i)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^password/i)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/confirm password/i)).toHaveAttribute('aria-invalid', 'true');
  });

  it('rejects an 11-digit mobile number and a mobile with letters', async () => {
    mockApi({});
    const { user } = renderScreen(<DonorRegistrationForm />);
    const mobile = screen.getByLabelText(/mobile number/i);

    await user.type(mobile, '98765432101');
    await submit(user);
    expect(await screen.findByText('Please enter a valid 10-digit mobile number')).toBeInTheDocument();

    await user.clear(mobile);
    await user.type(mobile, '98765abcde');
    await submit(user);
    expect(await screen.findByText('Please enter a valid 10-digit mobile number')).toBeInTheDocument();
  });

  it('registers with JSON (no confirmPassword) and sends the donor to the donor login', async () => {
    const api = mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(201, { user_id: 3, user_type: 'donor', username: 'asha' }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donorlogin');
    const request = api.requests[0];
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.json()).toEqual({
      user_type: 'donor',
      first_name: 'Asha',
      last_name: 'Kumar',
      email: 'asha@example.com',
      mobile: '9876543210',
      bloodgroup: 'O+',
      address: '12 Park Street',
      username: 'asha',
      password: 'secret1',
    });
  });

  it('sends a chosen picture as multipart profile_pic and previews it', async () => {
    const api = mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(201, { user_id: 3, user_type: 'donor', username: 'asha' }),
    });
    const { user, container } = renderScreen(<DonorRegistrationForm />);
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });

    await fillValidDonor(user);
    await user.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, picture);
    expect(await screen.findByRole('img', { name: 'Preview of your profile picture' })).toBeInTheDocument();
    await submit(user);

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donorlogin');
    const body = api.requests[0]?.body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('user_type')).toBe('donor');
    expect(form.get('username')).toBe('asha');
    expect(form.get('confirmPassword')).toBeNull();
    expect((form.get('profile_pic') as File).name).toBe('me.png');
  });

  it('refuses a picture that is not JPEG, PNG or WebP before uploading it', async () => {
    mockApi({});
    const { container } = renderScreen(<DonorRegistrationForm />);
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(
      container.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File(['GIF89a'], 'me.gif', { type: 'image/gif' }),
    );

    expect(await screen.findByText('Profile picture must be a JPEG, PNG or WebP image')).toBeInTheDocument();
  });

  it('puts the server field errors on the fields and shows the detail', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(409, {
          detail: 'Username already exists',
          code: 'username_taken',
          errors: { username: 'Username already exists' },
        }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Username already exists');
    const username = screen.getByLabelText(/username/i);
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveFocus();
    expect(
      within(username.closest('.mantine-InputWrapper-root') as HTMLElement).getByText(
        'Username already exists',
      ),
    ).toBeInTheDocument();
  });

  it('finishes a registration whose answer was lost: sent again, the taken username is signed in to, so it is theirs', async () => {
    let registered = false;
    const api = mockApi({
      'POST /api/auth/register': () => {
        if (registered) {
          return jsonResponse(409, {
            detail: 'Username already exists',
            code: 'username_taken',
            errors: { username: 'Username already exists' },
          });
        }
        // Made on the server; the answer never reaches the phone.
        registered = true;
        throw new TypeError('Failed to fetch');
      },
      'POST /api/auth/token': (request) =>
        new URLSearchParams(String(request.body)).get('password') === 'secret1'
          ? jsonResponse(200, { access_token: 'token', token_type: 'bearer', user_type: 'donor', user_id: 3 })
          : jsonResponse(401, { detail: 'Incorrect username or password' }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Registration failed. Please try again. The blood bank could not be reached: please check your connection.',
    );

    await submit(user);
    expect(await screen.findByTestId('current-path')).toHaveTextContent('/donor/donorlogin');
    expect(api.requests.filter((request) => request.path === '/api/auth/register')).toHaveLength(2);
  });

  it('still says "Username already exists" after a lost answer when the password does not open that account', async () => {
    let sent = 0;
    mockApi({
      'POST /api/auth/register': () => {
        sent += 1;
        if (sent === 1) throw new TypeError('Failed to fetch');
        return jsonResponse(409, {
          detail: 'Username already exists',
          code: 'username_taken',
          errors: { username: 'Username already exists' },
        });
      },
      'POST /api/auth/token': () => jsonResponse(401, { detail: 'Incorrect username or password' }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);
    await screen.findByRole('alert');
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already exists');
    expect(screen.getByRole('form', { name: 'Donor Registration' })).toBeInTheDocument();
  });

  it("does not take the person's patient account, with the same username and password, for the donor account", async () => {
    let sent = 0;
    mockApi({
      'POST /api/auth/register': () => {
        sent += 1;
        if (sent === 1) throw new TypeError('Failed to fetch');
        return jsonResponse(409, {
          detail: 'Username already exists',
          code: 'username_taken',
          errors: { username: 'Username already exists' },
        });
      },
      'POST /api/auth/token': () =>
        jsonResponse(200, { access_token: 'token', token_type: 'bearer', user_type: 'patient', user_id: 4 }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);
    await screen.findByRole('alert');
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already exists');
    expect(screen.getByRole('form', { name: 'Donor Registration' })).toBeInTheDocument();
  });

  it('falls back to the spec message when the server gives no detail', async () => {
    mockApi({
      'POST /api/auth/register': () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    const { user } = renderScreen(<DonorRegistrationForm />);

    await fillValidDonor(user);
    await submit(user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed. Please try again.');
  });
});
