import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { deferred, jsonResponse, mockApi, sampleUser, type MockRequest } from '@/test/mock-api';
import { renderApp } from '@/test/render';

const patient = {
  ...sampleUser,
  userId: 9,
  userType: 'patient' as const,
  username: 'ravi',
  first_name: 'Ravi',
  bloodgroup: 'B-' as const,
  disease: 'Surgery',
  age: 40,
  doctorname: 'Dr. Mehta',
};

const stock = [
  { bloodgroup: 'A+', units: 3, components: { whole_blood: 0, red_cells: 3, plasma: 2, platelets: 1 } },
  { bloodgroup: 'A-', units: 0, components: { whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 } },
  { bloodgroup: 'B+', units: 4, components: { whole_blood: 1, red_cells: 3, plasma: 0, platelets: 0 } },
  { bloodgroup: 'B-', units: 0, components: { whole_blood: 0, red_cells: 0, plasma: 1, platelets: 0 } },
  { bloodgroup: 'AB+', units: 1, components: { whole_blood: 0, red_cells: 1, plasma: 3, platelets: 0 } },
  { bloodgroup: 'AB-', units: 2, components: { whole_blood: 0, red_cells: 2, plasma: 0, platelets: 0 } },
  { bloodgroup: 'O+', units: 6, components: { whole_blood: 2, red_cells: 4, plasma: 0, platelets: 2 } },
  { bloodgroup: 'O-', units: 12, components: { whole_blood: 0, red_cells: 12, plasma: 0, platelets: 0 } },
];

type Handlers = Parameters<typeof mockApi>[0];

async function openForm(
  user:
    | typeof patient
    | (Omit<typeof patient, 'bloodgroup' | 'doctorname'> & { bloodgroup: null; doctorname: null }) = patient,
  handlers: Handlers = {},
) {
  localStorage.setItem('token', 'token-patient-9');
  const api = mockApi({
    'GET /api/users/me': () => jsonResponse(200, user),
    'GET /api/stock': () => jsonResponse(200, stock),
    ...handlers,
  });
  const rendered = await renderApp('/patient/make-request');
  await screen.findByRole('heading', { level: 1, name: 'Request Blood' });
  return { ...rendered, api };
}

const form = () => screen.getByRole('form', { name: 'Request Blood' });
const field = (label: RegExp) => within(form()).getByLabelText(label);
const submitButton = () => within(form()).getByRole('button', { name: /Submit/ });

/** Date inputs take a complete value at once, as a browser's date picker gives it. */
function pickDate(value: string) {
  fireEvent.change(field(/required date/i), { target: { value } });
}

async function fillValid(user: Awaited<ReturnType<typeof openForm>>['user'], date = addDays(todayIn(), 3)) {
  await user.clear(field(/number of units/i));
  await user.type(field(/number of units/i), '2');
  pickDate(date);
  await user.type(field(/hospital address/i), 'City Hospital, Ward 4');
  await user.type(field(/reason/i), 'Surgery on Friday');
}

describe('Request Blood form', () => {
  it("starts with the patient's own blood group and doctor, and one unit", async () => {
    await openForm();

    expect(field(/blood group/i)).toHaveValue('B-');
    expect(field(/doctor name/i)).toHaveValue('Dr. Mehta');
    expect(field(/number of units/i)).toHaveValue(1);
    expect(field(/required date/i)).toHaveAttribute('min', todayIn());
  });

  it('shows every required-field message of the spec, word for word, and sends nothing', async () => {
    const { user, api } = await openForm({ ...patient, bloodgroup: null, doctorname: null });

    await user.clear(field(/number of units/i));
    await user.click(submitButton());

    for (const message of [
      'Blood group is required',
      'Number of units is required',
      'Required date is needed',
      'Doctor name is required',
      'Hospital address is required',
      'Reason is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it.each([
    ['0', 'Minimum 1 unit is required'],
    ['11', 'Maximum 10 units can be requested at once'],
  ])('refuses %s units with "%s"', async (units, message) => {
    const { user } = await openForm();

    await fillValid(user);
    await user.clear(field(/number of units/i));
    await user.type(field(/number of units/i), units);
    await user.click(submitButton());

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field(/number of units/i)).toHaveAttribute('aria-invalid', 'true');
  });

  it('accepts 1 and 10 units', async () => {
    const { user } = await openForm();
    await fillValid(user);
    await user.clear(field(/number of units/i));
    await user.type(field(/number of units/i), '0');
    await user.click(submitButton());
    expect(await screen.findByText('Minimum 1 unit is required')).toBeInTheDocument();

    for (const units of ['1', '10']) {
      await user.clear(field(/number of units/i));
      await user.type(field(/number of units/i), units);
      await waitFor(() =>
        expect(screen.queryByText(/unit is required|units can be requested/)).not.toBeInTheDocument(),
      );
    }
  });

  it('refuses a required date in the past, and accepts today', async () => {
    const { user } = await openForm();

    await fillValid(user, addDays(todayIn(), -1));
    await user.click(submitButton());
    expect(await screen.findByText('Date cannot be in the past')).toBeInTheDocument();

    pickDate(todayIn());
    await waitFor(() => expect(screen.queryByText('Date cannot be in the past')).not.toBeInTheDocument());
  });

  it('lists the groups that can give to the chosen group with their stock, and follows the group', async () => {
    const { user } = await openForm();
    const panel = await screen.findByRole('region', { name: 'Who Can Give to B-' });

    const rows = () =>
      within(screen.getByRole('list', { name: /Groups that can give to/ })).getAllByRole('listitem');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toHaveTextContent('B-0 unitsNot Available');
    expect(rows()[1]).toHaveTextContent('O-12 unitsAvailable');
    // One group holds them all: nothing to add.
    expect(within(panel).getByTestId('compatible-total')).toHaveTextContent(
      /^12 units of compatible blood in stock now\.$/,
    );

    await user.selectOptions(field(/blood group/i), 'AB+');
    expect(await screen.findByRole('region', { name: 'Who Can Give to AB+' })).toBeInTheDocument();
    expect(rows().map((row) => row.textContent)).toEqual([
      'AB+1 unitAvailable',
      'A+3 unitsAvailable',
      'A-0 unitsNot Available',
      'B+4 unitsAvailable',
      'B-0 unitsNot Available',
      'AB-2 unitsAvailable',
      'O+6 unitsAvailable',
      'O-12 unitsAvailable',
    ]);
    // The same number the short-supply warning gives: a request is filled from one group.
    expect(screen.getByTestId('compatible-total')).toHaveTextContent(
      '28 units of compatible blood in stock now. A request is filled from one group: at most 12 units now.',
    );

    await user.selectOptions(field(/blood group/i), 'A-');
    expect(await screen.findByRole('region', { name: 'Who Can Give to A-' })).toBeInTheDocument();
    expect(rows().map((row) => row.textContent)).toEqual(['A-0 unitsNot Available', 'O-12 unitsAvailable']);
  });

  it('follows the component: plasma the other way round, platelets from any group, each counting its own units', async () => {
    const { user } = await openForm();
    const rows = () =>
      within(screen.getByRole('list', { name: 'Groups that can give to B-' })).getAllByRole('listitem');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(field(/component/i)).toHaveValue('red_cells');
    expect(
      within(field(/component/i))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Red cells', 'Whole blood', 'Plasma', 'Platelets']);

    // Plasma for B-: B and AB plasma, never O.
    await user.selectOptions(field(/component/i), 'plasma');
    await waitFor(() => expect(rows()[0]).toHaveTextContent('B-1 unitAvailable'));
    expect(rows().map((row) => row.textContent)).toEqual([
      'B-1 unitAvailable',
      'B+0 unitsNot Available',
      'AB+3 unitsAvailable',
      'AB-0 unitsNot Available',
    ]);
    expect(screen.getByTestId('compatible-total')).toHaveTextContent(
      '4 units of compatible plasma in stock now.',
    );
    expect(screen.getByText(/AB plasma can go to anyone/)).toBeInTheDocument();

    // Platelets: every group, the same ABO group first.
    await user.selectOptions(field(/component/i), 'platelets');
    await waitFor(() => expect(rows()).toHaveLength(8));
    expect(
      rows()
        .slice(0, 2)
        .map((row) => row.textContent),
    ).toEqual(['B-0 unitsNot Available', 'B+0 unitsNot Available']);
    expect(screen.getByTestId('compatible-total')).toHaveTextContent(
      '3 units of compatible platelets in stock now.',
    );

    // Whole blood counts only whole-blood units (O+ has 2 of its 6).
    await user.selectOptions(field(/blood group/i), 'O+');
    await user.selectOptions(field(/component/i), 'whole_blood');
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Groups that can give to O+' }))
          .getAllByRole('listitem')
          .map((row) => row.textContent),
      ).toEqual(['O+2 unitsAvailable', 'O-0 unitsNot Available']),
    );
  });

  it('sends the chosen component', async () => {
    let sent: MockRequest | undefined;
    const { user } = await openForm(patient, {
      'POST /api/requests': (request) => {
        sent = request;
        return jsonResponse(201, {
          ...(request.json() as object),
          id: 42,
          status: 'pending',
          rejection_reason: null,
          issued_bloodgroup: null,
          issued_unit_ids: [],
          created_at: '2026-01-01T00:00:00.000Z',
          decided_at: null,
        });
      },
    });
    await fillValid(user);
    await user.selectOptions(field(/component/i), 'plasma');
    await user.click(submitButton());
    expect(await screen.findByText(/Your request for 2 units of B- plasma/)).toBeInTheDocument();
    expect(sent?.json()).toMatchObject({ component: 'plasma', bloodgroup: 'B-', unit: 2 });
  });

  it('says when no compatible group has stock', async () => {
    await openForm(patient, {
      'GET /api/stock': () =>
        jsonResponse(
          200,
          stock.map((entry) => ({
            ...entry,
            units: 0,
            components: { ...entry.components, red_cells: 0, whole_blood: 0 },
          })),
        ),
    });

    expect(await screen.findByTestId('compatible-total')).toHaveTextContent(
      'No compatible blood is in stock right now.',
    );
  });

  it('says before sending when more units are asked than one compatible group has, with the number to call, and still sends', async () => {
    const { user, api } = await openForm(patient, {
      'GET /api/public/contact': () =>
        jsonResponse(200, { phone: '+91 20 2612 3456', email: 'donors@bank.example.org' }),
      'POST /api/requests': () => jsonResponse(201, { id: 5 }),
    });
    await user.selectOptions(field(/component/i), 'Plasma');
    // B- plasma comes from B and AB groups: B+ 0, B- 1, AB+ 3, AB- 0 units; a request is filled
    // from one group, so 3 can be given and 4 cannot, though 4 are on the shelves.
    await user.clear(field(/number of units/i));
    await user.type(field(/number of units/i), '3');
    expect(screen.queryByTestId('short-supply')).not.toBeInTheDocument();
    // A polite live region, on the page (empty) before the warning is put into it.
    const region = screen.getByTestId('short-supply-region');
    expect(region).toHaveAttribute('role', 'status');
    expect(region).toBeEmptyDOMElement();
    await user.clear(field(/number of units/i));
    await user.type(field(/number of units/i), '4');
    const warning = await screen.findByTestId('short-supply');
    expect(region).toBeInTheDocument();
    expect(region).toContainElement(warning);
    // Not a second live region inside the first.
    expect(warning).not.toHaveAttribute('role', 'status');
    expect(warning).toHaveTextContent(
      'At most 3 units of compatible plasma are in stock in one group now (AB+), and a request is filled from one group.',
    );
    expect(await within(warning).findByRole('link', { name: '+91 20 2612 3456' })).toHaveAttribute(
      'href',
      'tel:+912026123456',
    );
    // Not a refusal: the request goes out.
    await fillValid(user);
    await user.clear(field(/number of units/i));
    await user.type(field(/number of units/i), '4');
    await user.click(submitButton());
    await waitFor(() => expect(api.requests.some((request) => request.method === 'POST')).toBe(true));
  });

  it('disables the button while submitting, then shows the success state with both ways on', async () => {
    const response = deferred<Response>();
    const date = addDays(todayIn(), 3);
    let sent: MockRequest | undefined;
    const { user } = await openForm(patient, {
      'POST /api/requests': (request) => {
        sent = request;
        return response.promise;
      },
    });

    await fillValid(user, date);
    await user.click(submitButton());

    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    expect(sent?.json()).toEqual({
      bloodgroup: 'B-',
      unit: 2,
      date,
      doctorname: 'Dr. Mehta',
      hospitaladdress: 'City Hospital, Ward 4',
      reason: 'Surgery on Friday',
      component: 'red_cells',
    });

    response.resolve(
      jsonResponse(201, {
        id: 41,
        bloodgroup: 'B-',
        unit: 2,
        date,
        doctorname: 'Dr. Mehta',
        hospitaladdress: 'City Hospital, Ward 4',
        reason: 'Surgery on Friday',
        component: 'red_cells',
        status: 'pending',
        rejection_reason: null,
        issued_bloodgroup: null,
        issued_unit_ids: [],
        created_at: '2026-01-01T00:00:00.000Z',
        decided_at: null,
      }),
    );

    // Focus follows the heading's first paint (useFocusOnShow): waited for, as a loaded CI run needs.
    const submittedHeading = await screen.findByRole('heading', { level: 2, name: 'Request Submitted' });
    await waitFor(() => expect(submittedHeading).toHaveFocus());
    expect(screen.getByText(/Your request for 2 units of B- red cells/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/patient/patient-dashboard',
    );

    await user.click(screen.getByRole('button', { name: 'Make Another Request' }));
    expect(field(/hospital address/i)).toHaveValue('');
    expect(field(/blood group/i)).toHaveValue('B-');
  });

  it('keeps what was typed through a reload, says so, and starts over on request', async () => {
    const first = await openForm();
    await fillValid(first.user, addDays(todayIn(), 5));
    expect(screen.queryByText(/What you typed before/)).not.toBeInTheDocument();
    first.unmount();

    // The page opens again in the same tab (a reload, Back, or signing in after the session expired).
    const again = await openForm();
    const notice = await screen.findByText(/^What you typed before is filled in again\./);
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(field(/number of units/i)).toHaveValue(2);
    expect(field(/required date/i)).toHaveValue(addDays(todayIn(), 5));
    expect(field(/hospital address/i)).toHaveValue('City Hospital, Ward 4');
    expect(field(/reason/i)).toHaveValue('Surgery on Friday');

    await again.user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(field(/hospital address/i)).toHaveValue('');
    expect(field(/blood group/i)).toHaveValue('B-');
    expect(screen.queryByText(/What you typed before/)).not.toBeInTheDocument();
    again.unmount();
    await openForm();
    expect(field(/reason/i)).toHaveValue('');
  });

  it("never shows one user's draft to another who signs in on the same tab", async () => {
    const first = await openForm();
    await first.user.type(field(/reason/i), 'Private details');
    first.unmount();
    // Each draft is its user's (and signing in forgets everyone else's: lib/auth/auth-provider.tsx).
    await openForm({ ...patient, userId: 10, username: 'meena' });
    expect(field(/reason/i)).toHaveValue('');
  });

  it('says "Failed to submit your request. Please try again." when the server fails', async () => {
    const { user } = await openForm(patient, {
      'POST /api/requests': () => jsonResponse(500, { detail: 'Internal Server Error' }),
    });

    await fillValid(user);
    await user.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to submit your request. Please try again.',
    );
    expect(submitButton()).toBeEnabled();
    expect(submitButton()).toHaveTextContent('Submit Request');
  });

  it('makes one request when the answer is lost and the patient taps Submit again: the saved one is shown', async () => {
    const date = addDays(todayIn(), 3);
    const saved: unknown[] = [];
    let listReachable = false;
    const { user, api } = await openForm(patient, {
      // The request reaches the server and is saved; its answer never reaches the phone.
      'POST /api/requests': (request) => {
        saved.push({
          ...(request.json() as object),
          id: 77,
          status: 'pending',
          rejection_reason: null,
          issued_bloodgroup: null,
          issued_unit_ids: [],
          created_at: new Date().toISOString(),
          decided_at: null,
        });
        throw new TypeError('Failed to fetch');
      },
      'GET /api/requests/mine': () => {
        if (!listReachable) throw new TypeError('Failed to fetch');
        return jsonResponse(200, saved);
      },
    });

    await fillValid(user, date);
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to submit your request. Please try again. The blood bank could not be reached: please check your connection.',
    );

    listReachable = true;
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Request Submitted' })).toBeInTheDocument();
    expect(
      api.requests.filter((request) => request.method === 'POST' && request.path === '/api/requests'),
    ).toHaveLength(1);
  });

  it('says a request made offline waits for the connection, then sends it when the phone is back online', async () => {
    const { user, api } = await openForm(patient, {
      'POST /api/requests': (request) =>
        jsonResponse(201, {
          ...(request.json() as object),
          id: 78,
          status: 'pending',
          rejection_reason: null,
          issued_bloodgroup: null,
          issued_unit_ids: [],
          created_at: new Date().toISOString(),
          decided_at: null,
        }),
    });
    await fillValid(user);
    onlineManager.setOnline(false);
    try {
      await user.click(submitButton());
      expect(
        await screen.findByText('You are offline. This will be sent as soon as your connection is back.'),
      ).toBeInTheDocument();
      expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
    } finally {
      onlineManager.setOnline(true);
    }
    expect(await screen.findByRole('heading', { level: 2, name: 'Request Submitted' })).toBeInTheDocument();
  });

  it("puts the server's field messages on the fields", async () => {
    const { user } = await openForm(patient, {
      'POST /api/requests': () =>
        jsonResponse(422, {
          detail: 'Date cannot be in the past',
          errors: { date: 'Date cannot be in the past' },
        }),
    });

    await fillValid(user);
    await user.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to submit your request. Please try again.',
    );
    expect(screen.getByText('Date cannot be in the past')).toBeInTheDocument();
    expect(field(/required date/i)).toHaveAttribute('aria-invalid', 'true');
  });
});
