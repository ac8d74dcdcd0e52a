import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Callout } from '@bloodbank/shared/notifications';
import { formatDateTime } from '@/lib/format';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler } from '../testing/fixtures';
import { CalloutsScreen } from './callouts-screen';

const lowStock: Callout = {
  id: 1,
  bloodgroup: 'O-',
  reason: 'low_stock',
  created_at: '2026-11-20T08:15:00.000Z',
  created_by: null,
  notified: 9,
  booked_within_7_days: 4,
};

describe('CalloutsScreen', () => {
  it('asks for a group, confirms, calls out and shows how many were told, then the new row', async () => {
    let list: Callout[] = [lowStock];
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/callouts': () => jsonResponse(200, list),
      'POST /api/admin/callouts': () => {
        list = [
          {
            id: 2,
            bloodgroup: 'AB-',
            reason: 'staff',
            created_at: '2026-11-25T10:00:00.000Z',
            created_by: 'chief',
            notified: 12,
            booked_within_7_days: 0,
          },
          lowStock,
        ];
        return jsonResponse(201, { id: 2, notified: 12 });
      },
    });
    const { user } = renderScreen(<CalloutsScreen />);

    const table = await screen.findByRole('table', { name: 'Call-outs' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(
      `${formatDateTime(lowStock.created_at)}O-Low stock94`,
    );

    const form = screen.getByRole('form', { name: 'Call out donors' });
    await user.click(within(form).getByRole('button', { name: 'Call out donors' }));
    expect(await within(form).findByText('Blood group is required')).toBeInTheDocument();

    await user.selectOptions(within(form).getByRole('combobox', { name: 'Blood group needed' }), 'AB-');
    await user.click(within(form).getByRole('button', { name: 'Call out donors' }));
    const dialog = await screen.findByRole('dialog', { name: 'Call out donors for AB-?' });
    expect(dialog).toHaveTextContent('This messages every eligible donor whose blood can go to AB-');
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Send call-out' }));
    expect(await screen.findByRole('status', { name: '' })).toHaveTextContent(
      '12 donors were told that AB- is needed.',
    );
    expect(
      api.requests.filter((request) => request.method === 'POST').map((request) => request.json()),
    ).toEqual([{ bloodgroup: 'AB-' }]);
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('AB-Staff (chief)120');
  });

  it('keeps a failure inside the dialog', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/callouts': () => jsonResponse(200, []),
      'POST /api/admin/callouts': () => jsonResponse(500, { detail: 'Internal Server Error' }),
    });
    const { user } = renderScreen(<CalloutsScreen />);
    expect(await screen.findByText('No call-outs yet')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Blood group needed' }), 'O+');
    await user.click(screen.getByRole('button', { name: 'Call out donors' }));
    const dialog = await screen.findByRole('dialog', { name: 'Call out donors for O+?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send call-out' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Internal Server Error');
  });

  it('shows an error with Retry when the list cannot be loaded', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/callouts': () => jsonResponse(500, { detail: 'Internal Server Error' }),
    });
    renderScreen(<CalloutsScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal Server Error');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('lists 20 call-outs at first and 20 more on each "Show more call-outs"', async () => {
    const many = Array.from({ length: 45 }, (_, index) => ({
      ...lowStock,
      id: 45 - index,
      notified: 45 - index,
    }));
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/callouts': () => jsonResponse(200, many),
    });
    const { user } = renderScreen(<CalloutsScreen />);
    const table = await screen.findByRole('table', { name: 'Call-outs' });
    const rows = () => within(table).getAllByRole('row').length - 1;
    expect(rows()).toBe(20);
    await user.click(screen.getByRole('button', { name: 'Show 20 more call-outs' }));
    expect(rows()).toBe(40);
    await user.click(screen.getByRole('button', { name: 'Show 5 more call-outs' }));
    expect(rows()).toBe(45);
    // Focus is on the first row added (the button is gone): call-out 5, the 41st.
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-row-key', '5'));
    expect(screen.queryByRole('button', { name: /more call-outs/ })).not.toBeInTheDocument();
  });
});
