import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { formatDate } from '@/lib/format';
import { dashboard, dashboardHandler, paged, pendingRequest } from '../testing/fixtures';
import { RequestsScreen } from './requests-screen';

const SHORT = {
  detail: 'Stock does not have enough blood to approve this request. Only 0 units available.',
  code: 'insufficient_stock',
  available: 0,
  compatible: [{ bloodgroup: 'O-', units: 7 }],
};

describe('Manage Requests', () => {
  it("shows one patient's requests when the address names them, and the way back to everyone's", async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
    });
    const { user, router } = renderScreen(<RequestsScreen />, {
      path: '/admin-request',
      initialPath: '/admin-request?patient=9',
    });
    // Named from the rows once they arrive.
    await waitFor(() =>
      expect(document.body).toHaveTextContent(`Only the requests of ${pendingRequest.patient_name}.`),
    );
    const asked = api.requests.filter((request) => request.path === '/api/admin/requests');
    expect(asked.at(-1)?.query.get('patient_id')).toBe('9');

    await user.click(screen.getByRole('button', { name: "Show every patient's" }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(api.requests.at(-1)?.query.has('patient_id')).toBe(false));
  });

  it('lists the requests with the patient, the blood and the status', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () =>
        jsonResponse(
          200,
          paged([
            pendingRequest,
            {
              ...pendingRequest,
              id: 12,
              component: 'plasma',
              status: 'rejected',
              rejection_reason: 'Duplicate request',
            },
            { ...pendingRequest, id: 13, status: 'approved', issued_unit_ids: [81, 84] },
          ]),
        ),
    });
    renderScreen(<RequestsScreen />);

    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent('Kiran Sharma');
    expect(rows[1]).toHaveTextContent('B- · 2 units');
    expect(rows[1]).toHaveTextContent('Red cells');
    expect(rows[2]).toHaveTextContent('Plasma');
    expect(within(rows[1]!).getByRole('button', { name: /Approve request #38/ })).toBeEnabled();
    expect(rows[2]).toHaveTextContent('Rejected');
    expect(rows[2]).toHaveTextContent('Reason: Duplicate request');
    expect(within(rows[2]!).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    // An approved request names the bags it was given, to fetch from the fridge.
    expect(rows[3]).toHaveTextContent('Approved');
    expect(rows[3]).toHaveTextContent('Units #81, #84');
    expect(rows[2]).not.toHaveTextContent('Units #');
    expect(screen.getByText('Showing 1–3 of 3')).toBeInTheDocument();
  });

  it('asks before issuing: Approve opens a confirmation, Cancel issues nothing, Approve and issue does', async () => {
    const approvals: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/approve': (request) => {
        approvals.push(request.json());
        return jsonResponse(200, {
          ...pendingRequest,
          status: 'approved',
          issued_unit_ids: [7, 9],
          decided_at: '2026-11-21T10:00:00.000Z',
        });
      },
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Approve request #38' });
    expect(dialog).toHaveTextContent(
      `2 units of B- red cells will be issued to Kiran Sharma (needed by ${formatDate('2026-11-25')}), the units that expire first. This cannot be undone.`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(approvals).toEqual([]);

    await user.click(screen.getByRole('button', { name: /Approve request #38/ }));
    dialog = await screen.findByRole('dialog', { name: 'Approve request #38' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve and issue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      await screen.findByText('2 units of B- issued to Kiran Sharma: Units #7, #9.'),
    ).toBeInTheDocument();
    expect(approvals).toEqual([{}]);
    // The row's buttons went with the decision: focus goes on from the page's heading, not the top.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Manage Requests' })).toHaveFocus(),
    );
  });

  it('keeps the confirmation open with the reason when the approval fails', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/approve': () =>
        jsonResponse(409, { detail: 'This request has already been decided.', code: 'already_decided' }),
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve request #38' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve and issue' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This request has already been decided.',
    );
  });

  it('marks a pending request whose day has passed as overdue, and one needed today', async () => {
    const today = todayIn();
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () =>
        jsonResponse(
          200,
          paged([
            { ...pendingRequest, id: 1, date: addDays(today, -1) },
            { ...pendingRequest, id: 2, date: today },
            { ...pendingRequest, id: 3, date: addDays(today, 3) },
            {
              ...pendingRequest,
              id: 4,
              date: addDays(today, -1),
              status: 'rejected',
              rejection_reason: 'Duplicate',
            },
          ]),
        ),
    });
    renderScreen(<RequestsScreen />);
    const rows = await screen.findAllByRole('row');
    expect(rows[1]).toHaveTextContent(`${formatDate(addDays(today, -1))}overdue`);
    expect(rows[2]).toHaveTextContent(`${formatDate(today)}today`);
    expect(rows[3]).not.toHaveTextContent(/overdue|today/);
    // Decided: nothing is late any more.
    expect(rows[4]).not.toHaveTextContent('overdue');
  });

  it('meets a shortage with the server words and approves from a compatible group once confirmed', async () => {
    const approvals: unknown[] = [];
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/approve': (request) => {
        const body = request.json() as { bloodgroup?: string };
        approvals.push(body);
        if (!body.bloodgroup) return jsonResponse(409, SHORT);
        return jsonResponse(200, {
          ...pendingRequest,
          status: 'approved',
          issued_bloodgroup: 'O-',
          issued_unit_ids: [5, 6],
          decided_at: '2026-11-21T10:00:00.000Z',
        });
      },
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Approve request #38' })).getByRole('button', {
        name: 'Approve and issue',
      }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SHORT.detail);
    expect(dialog).toHaveTextContent('needs 2 units of B- red cells.');
    expect(dialog).toHaveTextContent('7 units available');

    await user.click(within(dialog).getByRole('button', { name: 'Approve from O-' }));
    // The first click only says what will happen; O- stays at its low-stock line (5), so no warning.
    const review = within(dialog).getByRole('group', { name: 'Approve from O-?' });
    expect(review).toHaveTextContent(
      '2 units of O- red cells will be issued to Kiran Sharma; O- will have 5 units left. This cannot be undone.',
    );
    expect(review).not.toHaveTextContent('low-stock line');
    expect(approvals).toEqual([{}]);
    await user.click(within(review).getByRole('button', { name: 'Issue 2 units of O-' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The bags to fetch, by number.
    expect(
      await screen.findByText('2 units of O- issued to Kiran Sharma: Units #5, #6.'),
    ).toBeInTheDocument();
    expect(approvals).toEqual([{}, { bloodgroup: 'O-' }]);
    // The row's buttons went with the decision: focus goes on from the page's heading, not the top.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Manage Requests' })).toHaveFocus(),
    );
    // The list, the stock and the dashboard are fetched again after the approval.
    await waitFor(() =>
      expect(
        api.requests.filter((request) => request.path === '/api/admin/requests').length,
      ).toBeGreaterThanOrEqual(2),
    );
  });

  it('asks before issuing from another group, and warns when that group falls under its low-stock line', async () => {
    const approvals: unknown[] = [];
    const request = { ...pendingRequest, bloodgroup: 'A+' as const, unit: 7 };
    mockApi({
      // The bank's configured threshold, not the default of 5.
      'GET /api/admin/dashboard': () => jsonResponse(200, dashboard({ lowStockThreshold: 6 })),
      'GET /api/admin/requests': () => jsonResponse(200, paged([request])),
      'POST /api/admin/requests/38/approve': (sent) => {
        approvals.push(sent.json());
        return jsonResponse(409, {
          ...SHORT,
          compatible: [
            { bloodgroup: 'O+', units: 9 },
            { bloodgroup: 'A-', units: 13 },
          ],
        });
      },
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(await screen.findByRole('button', { name: 'Approve and issue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });

    await user.click(within(dialog).getByRole('button', { name: 'Approve from O+' }));
    const review = within(dialog).getByRole('group', { name: 'Approve from O+?' });
    // Focus moves to what will happen, read with its warning.
    await waitFor(() => expect(review).toHaveFocus());
    expect(review).toHaveAccessibleDescription(
      '7 units of O+ red cells will be issued to Kiran Sharma; O+ will have 2 units left. This cannot be undone. ' +
        'Under the low-stock line O+ will be under its low-stock line of 6 units, and donors may be called out.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Approve from A-' })).not.toBeInTheDocument();
    // The second click of a double-click on "Approve from O+" lands on the confirmation: nothing is issued.
    fireEvent.click(within(review).getByRole('button', { name: 'Issue 7 units of O+' }), { detail: 2 });
    expect(approvals).toEqual([{}]);

    // Back: the list again, focus on the button that opened the review, still nothing issued.
    await user.click(within(review).getByRole('button', { name: 'Back' }));
    expect(within(dialog).queryByRole('group')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Approve from O+' })).toHaveFocus(),
    );

    // A- keeps 6 units, not under the line: no warning.
    await user.click(within(dialog).getByRole('button', { name: 'Approve from A-' }));
    const other = within(dialog).getByRole('group', { name: 'Approve from A-?' });
    expect(other).toHaveTextContent('A- will have 6 units left.');
    expect(other).not.toHaveTextContent('low-stock line');
    expect(approvals).toEqual([{}]);
  });

  it('never guesses the low-stock line: while the dashboard cannot be read, the review warns of no line', async () => {
    mockApi({
      // The bank's line is unknown: the default of 5 would call 4 units left "under the line" for a bank whose line is 3.
      'GET /api/admin/dashboard': () => jsonResponse(500, { detail: 'down' }),
      'GET /api/admin/requests': () => jsonResponse(200, paged([{ ...pendingRequest, unit: 2 }])),
      'POST /api/admin/requests/38/approve': () =>
        jsonResponse(409, { ...SHORT, compatible: [{ bloodgroup: 'O-', units: 6 }] }),
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(await screen.findByRole('button', { name: 'Approve and issue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve from O-' }));

    const review = within(dialog).getByRole('group', { name: 'Approve from O-?' });
    expect(review).toHaveTextContent('O- will have 4 units left.');
    expect(review).not.toHaveTextContent('low-stock line');
  });

  it('gives plasma no low-stock warning: the line is about red-cell units', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () =>
        jsonResponse(200, paged([{ ...pendingRequest, component: 'plasma' as const }])),
      'POST /api/admin/requests/38/approve': () =>
        jsonResponse(409, { ...SHORT, compatible: [{ bloodgroup: 'AB+', units: 3 }] }),
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(await screen.findByRole('button', { name: 'Approve and issue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve from AB+' }));

    const review = within(dialog).getByRole('group', { name: 'Approve from AB+?' });
    expect(review).toHaveTextContent(
      '2 units of AB+ plasma will be issued to Kiran Sharma; AB+ will have 1 unit of plasma left.',
    );
    expect(review).not.toHaveTextContent('low-stock line');
  });

  it('says so when no compatible group can cover the request', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/approve': () => jsonResponse(409, { ...SHORT, compatible: [] }),
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(await screen.findByRole('button', { name: 'Approve and issue' }));

    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });
    expect(dialog).toHaveTextContent('No compatible group has enough stock to cover this request.');
    expect(within(dialog).queryByRole('button', { name: /Approve from/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('rejects with a reason for the patient', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/reject': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, {
          ...pendingRequest,
          status: 'rejected',
          rejection_reason: 'No matching donor',
        });
      },
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Reject request #38/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject request #38' });
    await user.type(within(dialog).getByLabelText('Reason (optional)'), '  No matching donor ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ reason: 'No matching donor' }]);
  });

  it('filters by status through the URL and shows an empty state', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([])),
    });
    const { user, router } = renderScreen(<RequestsScreen />, { path: '/admin-request' });

    expect(await screen.findByText('No blood requests yet')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Status'), 'cancelled');

    expect(await screen.findByText('No cancelled requests')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=cancelled');
    const last = api.fetchMock.mock.calls.at(-1)?.[0];
    expect(String(last)).toContain('status=cancelled');
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let calls = 0;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(500, { detail: 'Internal Server Error' })
          : jsonResponse(200, paged([pendingRequest]));
      },
    });
    const { user } = renderScreen(<RequestsScreen />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Internal Server Error');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Kiran Sharma')).toBeInTheDocument();
  });
});
