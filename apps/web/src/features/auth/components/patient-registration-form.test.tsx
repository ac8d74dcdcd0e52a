import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, sampleUser, tokenFor } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { PatientRegistrationForm } from './patient-registration-form';

type User = ReturnType<typeof renderScreen>['user'];

async function fillValidPatient(user: User, age = '34') {
  await user.type(screen.getByLabelText(/first name/i), 'Ravi');
  await user.type(screen.getByLabelText(/last name/i), 'Shah');
  await user.type(screen.getByLabelText(/^email/i), 'ravi@example.com');
  await user.type(screen.getByLabelText(/mobile number/i), '9123456780');
  await user.selectOptions(screen.getByLabelText(/blood group/i), 'AB-');
  await user.type(screen.getByLabelText(/address/i), '4 Lake Road');
  await user.type(screen.getByLabelText(/^age/i), age);
  await user.selectOptions(screen.getByLabelText(/disease/i), 'Surgery');
  await user.type(screen.getByLabelText(/doctor name/i), 'Dr. Mehta');
  await user.type(screen.getByLabelText(/username/i), 'ravi');
  await user.type(screen.getByLabelText(/^password/i), 'secret1');
  await user.type(screen.getByLabelText(/confirm password/i), 'secret1');
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Register' }));

describe('PatientRegistrationForm', () => {
  it('shows the required-field messages, including the medical details', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<PatientRegistrationForm />);

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
      'Age is required',
      'Disease is required',
      'Doctor name is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    ['0', 'Age must be greater than 0'],
    ['121', 'Age must be less than 120'],
  ])('rejects age %s with "%s"', async (age, message) => {
    mockApi({});
    const { user } = renderScreen(<PatientRegistrationForm />);

    await fillValidPatient(user, age);
    await submit(user);

    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('accepts the bounds 1 and 120 and refuses just outside them', async () => {
    mockApi({});
    const { user } = renderScreen(<PatientRegistrationForm />);
    const age = screen.getByLabelText(/^age/i);
    const ageMessage = () => screen.queryByText(/^Age must be/);

    await user.type(age, '0');
    await submit(user);
    expect(await screen.findByText('Age must be greater than 0')).toBeInTheDocument();

    // After a submit every change is checked again, so each value's verdict shows at once.
    await user.clear(age);
    await user.type(age, '1');
    await waitFor(() => expect(ageMessage()).not.toBeInTheDocument());

    await user.clear(age);
    await user.type(age, '121');
    expect(await screen.findByText('Age must be less than 120')).toBeInTheDocument();

    await user.clear(age);
    await user.type(age, '120');
    await waitFor(() => expect(ageMessage()).not.toBeInTheDocument());
  });

  it('says when the passwords do not match', async () => {
    mockApi({});
    const { user } = renderScreen(<PatientRegistrationForm />);

    await user.type(screen.getByLabelText(/^password/i), 'secret1');
    await user.type(screen.getByLabelText(/confirm password/i), 'secret2');
    await submit(user);

    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });

  it('registers, signs in with the same credentials and opens the patient dashboard', async () => {
    const patient = {
      ...sampleUser,
      userId: 9,
      userType: 'patient' as const,
      username: 'ravi',
      first_name: 'Ravi',
    };
    const api = mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(201, { user_id: 9, user_type: 'patient', username: 'ravi' }),
      'POST /api/auth/token': () => jsonResponse(200, tokenFor('patient', 9)),
      'GET /api/users/me': () => jsonResponse(200, patient),
    });
    const { user } = renderScreen(<PatientRegistrationForm />);

    await fillValidPatient(user);
    await submit(user);

    expect(await screen.findByTestId('current-path')).toHaveTextContent('/patient/patient-dashboard');
    expect(api.requests[0]?.json()).toMatchObject({
      user_type: 'patient',
      age: 34,
      disease: 'Surgery',
      doctorname: 'Dr. Mehta',
      bloodgroup: 'AB-',
    });
    expect(String(api.requests[1]?.body)).toBe('username=ravi&password=secret1');
    expect(localStorage.getItem('token')).toBe('token-patient-9');
  });

  it('maps a 422 from the server onto the age field', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        jsonResponse(422, {
          detail: 'Age must be less than 120',
          errors: { age: 'Age must be less than 120' },
        }),
    });
    const { user } = renderScreen(<PatientRegistrationForm />);

    await fillValidPatient(user, '99');
    await submit(user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Age must be less than 120');
    expect(screen.getByLabelText(/^age/i)).toHaveAttribute('aria-invalid', 'true');
  });
});
