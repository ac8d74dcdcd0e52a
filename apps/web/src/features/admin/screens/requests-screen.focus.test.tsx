import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged, pendingRequest } from '../testing/fixtures';
import { RequestsScreen } from './requests-screen';

const SHORT = {
  detail: 'Stock does not have enough blood to approve this request. Only 0 units available.',
  code: 'insufficient_stock',
  available: 0,
  compatible: [{ bloodgroup: 'O-', units: 7 }],
};

/** Longer than Mantine's 10 ms before a closed dialog gives focus back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const secondRequest = { ...pendingRequest, id: 39, patient_name: 'Meera Rao', patient_username: 'meera' };

describe('Manage Requests: where focus goes', () => {
  it('puts focus inside Not enough stock when the confirmation hands over to it, and back on Approve when it closes', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': () => jsonResponse(200, paged([pendingRequest])),
      'POST /api/admin/requests/38/approve': () => jsonResponse(409, SHORT),
    });
    const { user } = renderScreen(<RequestsScreen />);

    await user.click(await screen.findByRole('button', { name: /Approve request #38/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Approve request #38' })).getByRole('button', {
        name: 'Approve and issue',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Not enough stock' });
    await settle();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    // Tab stays inside the dialog, not on the page behind it.
    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    // Closed without approving: the row's Approve is still there, and focus goes back to it.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: /Approve request #38/ })).toHaveFocus());
  });

  it("moves focus to the next request's Reject after a rejection, and to the page heading after the last", async () => {
    let rejected: number[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': (request) =>
        jsonResponse(
          200,
          paged(
            [pendingRequest, secondRequest].filter(
              (item) => request.query.get('status') !== 'pending' || !rejected.includes(item.id),
            ),
          ),
        ),
      'POST /api/admin/requests/38/reject': () => {
        rejected = [...rejected, 38];
        return jsonResponse(200, { ...pendingRequest, status: 'rejected' });
      },
      'POST /api/admin/requests/39/reject': () => {
        rejected = [...rejected, 39];
        return jsonResponse(200, { ...secondRequest, status: 'rejected' });
      },
    });
    const { user } = renderScreen(<RequestsScreen />, { initialPath: '/?status=pending' });

    await user.click(await screen.findByRole('button', { name: /Reject request #38/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Reject request #38' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await settle();
    await waitFor(() => expect(screen.getByRole('button', { name: /Reject request #39/ })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: /Reject request #39/ }));
    dialog = await screen.findByRole('dialog', { name: 'Reject request #39' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await settle();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Manage Requests' })).toHaveFocus(),
    );
  });
});
