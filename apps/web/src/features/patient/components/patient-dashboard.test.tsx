import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BloodRequest, PatientSummary } from '@bloodbank/shared/blood-request';
import { deferred, jsonResponse, mockApi, sampleUser } from '@/test/mock-api';
import { renderApp } from '@/test/render';

const patient = {
  ...sampleUser,
  userId: 9,
  userType: 'patient' as const,
  username: 'ravi',
  first_name: 'Ravi',
  bloodgroup: 'B-' as const,
  doctorname: 'Dr. Mehta',
};

const stock = [
  { bloodgroup: 'A+', units: 3, components: { whole_blood: 0, red_cells: 3, plasma: 0, platelets: 0 } },
  { bloodgroup: 'A-', units: 0, components: { whole_blood: 0, red_cells: 0, plasma: 5, platelets: 1 } },
  { bloodgroup: 'B+', units: 4, components: { whole_blood: 0, red_cells: 4, plasma: 0, platelets: 0 } },
  { bloodgroup: 'B-', units: 0, components: { whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 } },
  { bloodgroup: 'AB+', units: 1, components: { whole_blood: 0, red_cells: 1, plasma: 1, platelets: 0 } },
  { bloodgroup: 'AB-', units: 2, components: { whole_blood: 0, red_cells: 2, plasma: 0, platelets: 0 } },
  { bloodgroup: 'O+', units: 6, components: { whole_blood: 0, red_cells: 6, plasma: 0, platelets: 0 } },
  { bloodgroup: 'O-', units: 12, components: { whole_blood: 4, red_cells: 8, plasma: 0, platelets: 0 } },
];

function bloodRequest(overrides: Partial<BloodRequest> & Pick<BloodRequest, 'id'>): BloodRequest {
  return {
    bloodgroup: 'B-',
    unit: 2,
    date: '2026-03-12',
    doctorname: 'Dr. Mehta',
    hospitaladdress: 'City Hospital',
    reason: 'Surgery',
    component: 'red_cells',
    status: 'pending',
    rejection_reason: null,
    issued_bloodgroup: null,
    issued_unit_ids: [],
    created_at: '2026-03-01T10:00:00.000Z',
    decided_at: null,
    ...overrides,
  };
}

const requests: BloodRequest[] = [
  bloodRequest({ id: 4, unit: 3, date: '2026-03-12', hospitaladdress: 'City Hospital, Ward 4' }),
  bloodRequest({
    id: 3,
    component: 'plasma',
    status: 'approved',
    issued_bloodgroup: 'O-',
    issued_unit_ids: [1, 2],
    hospitaladdress: 'Lake Clinic',
  }),
  bloodRequest({ id: 2, status: 'approved', issued_bloodgroup: 'B-', issued_unit_ids: [5, 6] }),
  bloodRequest({ id: 1, status: 'rejected', rejection_reason: 'No compatible blood in stock' }),
];
const summary: PatientSummary = { total: 4, pending: 1, approved: 2, rejected: 1, cancelled: 0 };

type Handlers = Parameters<typeof mockApi>[0];

async function openDashboard(handlers: Handlers = {}) {
  localStorage.setItem('token', 'token-patient-9');
  const api = mockApi({
    'GET /api/users/me': () => jsonResponse(200, patient),
    'GET /api/patient/summary': () => jsonResponse(200, summary),
    'GET /api/stock': () => jsonResponse(200, stock),
    'GET /api/requests/mine': () => jsonResponse(200, requests),
    ...handlers,
  });
  const rendered = await renderApp('/patient/patient-dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Ravi' });
  return { ...rendered, api };
}

const counter = (key: keyof PatientSummary) => screen.getByTestId(`count-${key}`);

describe('Patient dashboard', () => {
  it('puts My Requests before the stock, in the page and on the screen alike', async () => {
    const { container } = await openDashboard();
    await screen.findByRole('heading', { level: 2, name: 'My Requests' });
    const names = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    // Keyboard and screen reader follow the page's order: the patient's own requests first.
    expect(names.indexOf('My Requests')).toBeLessThan(names.indexOf('Available Blood Stock'));
    // No column is moved on screen (a Grid.Col order at some width): the eye reads the same order.
    const styles = [...container.ownerDocument.querySelectorAll('style')].map((style) => style.textContent);
    expect(styles.join('\n')).not.toContain('--col-order');
  });

  it('shows a spinner until the counters, the stock and the requests are in', async () => {
    const slowSummary = deferred<Response>();
    await openDashboard({ 'GET /api/patient/summary': () => slowSummary.promise });

    expect(await screen.findByRole('status')).toHaveTextContent('Loading your dashboard…');
    expect(screen.queryByText('Available Blood Stock')).not.toBeInTheDocument();

    slowSummary.resolve(jsonResponse(200, summary));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Available Blood Stock' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("shows the server's counters under the spec's labels", async () => {
    await openDashboard({
      'GET /api/patient/summary': () =>
        jsonResponse(200, { total: 17, pending: 5, approved: 8, rejected: 3, cancelled: 1 }),
    });

    await screen.findByTestId('count-total');
    expect(counter('total')).toHaveTextContent('Total Requests17');
    expect(counter('pending')).toHaveTextContent('Pending Requests5');
    expect(counter('approved')).toHaveTextContent('Approved Requests8');
    expect(counter('rejected')).toHaveTextContent('Rejected Requests3');
    expect(counter('cancelled')).toHaveTextContent('Cancelled Requests1');
  });

  it('shows the stock table: Available above 0 units (red cells and whole blood), otherwise Not Available, with plasma and platelets apart', async () => {
    await openDashboard();

    const table = await screen.findByRole('table', { name: 'Available Blood Stock' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Blood Group', 'Units', 'Status', 'Plasma', 'Platelets']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => Array.from(row.children, (cell) => cell.textContent));
    expect(rows).toEqual([
      ['A+', '3', 'Available', '0', '0'],
      // Plasma alone never makes a group "Available": the status follows the red-cell units.
      ['A-', '0', 'Not Available', '5', '1'],
      ['B+', '4', 'Available', '0', '0'],
      ['B-', '0', 'Not Available', '0', '0'],
      ['AB+', '1', 'Available', '1', '0'],
      ['AB-', '2', 'Available', '0', '0'],
      ['O+', '6', 'Available', '0', '0'],
      ['O-', '12', 'Available', '0', '0'],
    ]);
  });

  it('lists my requests with status, hospital, rejection reason and the group issued when it differs', async () => {
    await openDashboard();

    const list = await screen.findByRole('list', { name: 'My Requests' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);

    expect(items[0]).toHaveTextContent('3 units of B-Pending');
    expect(items[0]).toHaveTextContent('Component: Red cells');
    expect(items[0]).toHaveTextContent('Needed by: 12 Mar 2026');
    expect(items[0]).toHaveTextContent('Hospital: City Hospital, Ward 4');
    expect(
      within(items[0]!).getByRole('button', { name: /^Cancel request for 3 units of B-/ }),
    ).toBeInTheDocument();

    expect(items[1]).toHaveTextContent('Approved');
    expect(items[1]).toHaveTextContent('Component: Plasma');
    expect(items[1]).toHaveTextContent('Issued: O- (compatible with B-)');
    expect(within(items[1]!).queryByRole('button')).not.toBeInTheDocument();

    expect(items[2]).toHaveTextContent('Approved');
    expect(items[2]).not.toHaveTextContent('Issued:');

    expect(items[3]).toHaveTextContent('Rejected');
    expect(items[3]).toHaveTextContent('Reason: No compatible blood in stock');
    expect(within(items[3]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('lists the latest 20 requests, and 20 more on each "Show more requests"', async () => {
    const many = Array.from({ length: 45 }, (_, index) =>
      bloodRequest({ id: 45 - index, status: 'approved', hospitaladdress: `Hospital ${45 - index}` }),
    );
    const { user } = await openDashboard({ 'GET /api/requests/mine': () => jsonResponse(200, many) });
    await screen.findByTestId('request-45');
    const listed = () => screen.queryAllByTestId(/^request-\d+$/).length;
    expect(listed()).toBe(20);
    expect(screen.queryByTestId('request-25')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show 20 more requests' }));
    expect(listed()).toBe(40);
    await user.click(screen.getByRole('button', { name: 'Show 5 more requests' }));
    expect(listed()).toBe(45);
    expect(screen.queryByRole('button', { name: /more requests/ })).not.toBeInTheDocument();
    // Focus is on the first request added (the button is gone).
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-testid', 'request-5'));
  });

  it('says so kindly when there are no requests yet, with a way to make one', async () => {
    await openDashboard({
      'GET /api/patient/summary': () =>
        jsonResponse(200, { total: 0, pending: 0, approved: 0, rejected: 0, cancelled: 0 }),
      'GET /api/requests/mine': () => jsonResponse(200, []),
    });

    const section = await screen.findByRole('region', { name: 'My Requests' });
    expect(
      within(section).getByRole('heading', { name: 'You have not requested blood yet' }),
    ).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Request Blood' })).toHaveAttribute(
      'href',
      '/patient/make-request',
    );
    expect(counter('total')).toHaveTextContent('Total Requests0');
  });

  it('says "Failed to load dashboard data. Please try again." and loads again on Retry', async () => {
    let calls = 0;
    const { user } = await openDashboard({
      'GET /api/stock': () =>
        ++calls === 1 ? jsonResponse(500, { detail: 'Internal Server Error' }) : jsonResponse(200, stock),
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load dashboard data. Please try again.');
    expect(screen.queryByTestId('count-total')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('table', { name: 'Available Blood Stock' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('cancels a pending request after confirming, then refreshes the list and the counters', async () => {
    let cancelled = false;
    const { user, api } = await openDashboard({
      'GET /api/requests/mine': () =>
        jsonResponse(
          200,
          cancelled ? [{ ...requests[0]!, status: 'cancelled' }, ...requests.slice(1)] : requests,
        ),
      'GET /api/patient/summary': () =>
        jsonResponse(200, cancelled ? { ...summary, pending: 0, cancelled: 1 } : summary),
      'POST /api/requests/4/cancel': () => {
        cancelled = true;
        return jsonResponse(200, { ...requests[0]!, status: 'cancelled' });
      },
    });

    await user.click(await screen.findByRole('button', { name: /^Cancel request for 3 units of B-/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this request?' });
    expect(dialog).toHaveTextContent(
      'Your request for 3 units of B- blood, needed by 12 Mar 2026, will be cancelled.',
    );

    // Keeping it sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep Request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: /^Cancel request for 3 units of B-/ }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, Cancel Request' }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Your request has been cancelled.')).toBeInTheDocument();
    const first = within(screen.getByRole('list', { name: 'My Requests' })).getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('Cancelled');
    expect(within(first).queryByRole('button')).not.toBeInTheDocument();
    // Its Cancel button is gone: focus is on the request itself, not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(counter('pending')).toHaveTextContent('Pending Requests0');
    expect(counter('total')).toHaveTextContent('Total Requests4');
  });

  it("shows the server's reason when a request can no longer be cancelled", async () => {
    const { user } = await openDashboard({
      'POST /api/requests/4/cancel': () =>
        jsonResponse(409, { detail: 'Only a pending request can be cancelled.' }),
    });

    await user.click(await screen.findByRole('button', { name: /^Cancel request for 3 units of B-/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Request' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only a pending request can be cancelled.',
    );
  });
});
