import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged, pendingDonation } from '../testing/fixtures';
import { DonationsScreen } from './donations-screen';

const healthy = {
  ...pendingDonation,
  id: 52,
  disease: 'None',
  donor_name: 'Ravi Reddy',
  donor_username: 'ravi.r',
};

describe('Manage Donations', () => {
  it("puts the donor's health condition in plain sight and tints the rows to check", async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([pendingDonation, healthy])),
    });
    renderScreen(<DonationsScreen />);

    const [, flagged, plain] = await screen.findAllByRole('row');
    expect(flagged).toHaveTextContent('Diabetes');
    expect(flagged?.className).toMatch(/highlight/);
    expect(plain).toHaveTextContent('None');
    expect(plain?.className ?? '').not.toMatch(/highlight/);
  });

  it('approves a donation and refreshes the list and the stock', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([healthy])),
      'POST /api/admin/donations/52/approve': () =>
        jsonResponse(200, {
          ...healthy,
          status: 'approved',
          unit_ids: [301],
          decided_at: '2026-11-21T09:00:00.000Z',
        }),
    });
    const { user } = renderScreen(<DonationsScreen />);

    await user.click(await screen.findByRole('button', { name: 'Approve donation #52 from Ravi Reddy' }));

    expect(
      await screen.findByText('1 unit of B- from Ravi Reddy added to the inventory.'),
    ).toBeInTheDocument();
    await waitFor(() => {
      const fetched = api.requests.map((request) => `${request.method} ${request.path}`);
      expect(fetched.filter((call) => call === 'GET /api/admin/donations').length).toBeGreaterThanOrEqual(2);
      expect(fetched.filter((call) => call === 'GET /api/admin/dashboard').length).toBeGreaterThanOrEqual(2);
    });
  });

  it('rejects with a reason, and sends no reason when none is given', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([pendingDonation, healthy])),
      'POST /api/admin/donations/53/reject': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, {
          ...pendingDonation,
          status: 'rejected',
          rejection_reason: 'Blood sugar too high today',
        });
      },
      'POST /api/admin/donations/52/reject': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, { ...healthy, status: 'rejected' });
      },
    });
    const { user } = renderScreen(<DonationsScreen />);

    await user.click(await screen.findByRole('button', { name: 'Reject donation #53 from Asha Kulkarni' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    expect(dialog).toHaveTextContent('health condition: Diabetes');
    expect(within(dialog).getByText('Shown to the donor. At most 500 characters.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Blood sugar too high today');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Asha Kulkarni will see the decision.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reject donation #52 from Ravi Reddy' }));
    dialog = await screen.findByRole('dialog', { name: 'Reject donation #52' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(bodies).toEqual([{ reason: 'Blood sugar too high today' }, {}]);
  });

  it('refuses a reason over 500 characters before sending it', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([pendingDonation])),
    });
    const { user } = renderScreen(<DonationsScreen />);

    await user.click(await screen.findByRole('button', { name: /Reject donation #53/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    const reason = within(dialog).getByLabelText('Reason (optional)');
    await user.click(reason);
    await user.paste('x'.repeat(501));
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    expect(await within(dialog).findByText('Reason must be at most 500 characters')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('keeps the dialog open and says why when the donation was already decided', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([pendingDonation])),
      'POST /api/admin/donations/53/reject': () =>
        jsonResponse(409, { detail: 'This donation has already been decided.', code: 'already_decided' }),
    });
    const { user } = renderScreen(<DonationsScreen />);

    await user.click(await screen.findByRole('button', { name: /Reject donation #53/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This donation has already been decided.',
    );
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeEnabled();
  });

  it('says when there is nothing to review', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': () => jsonResponse(200, paged([])),
    });
    renderScreen(<DonationsScreen />);

    expect(await screen.findByRole('heading', { name: 'No donations yet' })).toBeInTheDocument();
  });
});
