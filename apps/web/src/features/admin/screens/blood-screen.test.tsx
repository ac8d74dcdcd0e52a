import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BloodUnit } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { jsonResponse, mockApi, sampleUser } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged } from '../testing/fixtures';
import { BloodScreen } from './blood-screen';

const unit: BloodUnit = {
  id: 7,
  bloodgroup: 'O+',
  source: 'donation',
  donation_id: 3,
  collected_on: '2026-11-01',
  expires_on: '2026-12-13',
  status: 'available',
  expired: false,
  request_id: null,
  issued_at: null,
  discarded_at: null,
  discard_reason: null,
  created_at: '2026-11-01T10:00:00.000Z',
};

describe('Manage Blood', () => {
  it('shows available, expiring and expired units per group, and the shelf by default', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([unit])),
    });
    renderScreen(<BloodScreen />);

    const aPlus = await screen.findByRole('button', { name: /A\+.*Show the A\+ units/ });
    expect(aPlus).toHaveTextContent('12 available');
    expect(aPlus).toHaveTextContent('2 expiring soon');
    expect(screen.getByRole('button', { name: /O\+.*Show the O\+ units/ })).toHaveTextContent('3 expired');
    expect(await screen.findByText('Donation #3')).toBeInTheDocument();
    const unitsCall = api.requests.find((request) => request.path === '/api/admin/units');
    expect(unitsCall).toBeDefined();
    expect(
      String(api.fetchMock.mock.calls.find((call) => String(call[0]).includes('/admin/units'))?.[0]),
    ).toContain('status=available');
  });

  it('filters the unit list by a group card and by status', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([])),
    });
    const { user, router } = renderScreen(<BloodScreen />);

    await user.click(await screen.findByRole('button', { name: /Show the B- units/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?bloodgroup=B-'));
    expect(screen.getByRole('button', { name: /Show the B- units/ })).toHaveAttribute('aria-pressed', 'true');
    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await waitFor(() => expect(router.state.location.search).toBe('?bloodgroup=B-&status=all'));

    expect(await screen.findByRole('heading', { name: 'No units match these filters' })).toBeInTheDocument();
    const last = new URL(String(api.fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost');
    expect(last.searchParams.get('bloodgroup')).toBe('B-');
    expect(last.searchParams.has('status')).toBe(false);
  });

  it('receives units, refusing a collection date in the future', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([unit])),
      'POST /api/admin/units': (request) => {
        bodies.push(request.json());
        return jsonResponse(201, {
          units: [
            { ...unit, id: 90 },
            { ...unit, id: 91 },
          ],
        });
      },
    });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Receive units' });

    await user.click(within(form).getByRole('button', { name: 'Receive units' }));
    expect(await within(form).findByText('Blood group is required')).toBeInTheDocument();

    await user.selectOptions(within(form).getByLabelText(/Blood Group/), 'AB-');
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '2');
    const date = within(form).getByLabelText(/Collection date/);
    await user.clear(date);
    await user.type(date, addDays(todayIn(), 1));
    await user.click(within(form).getByRole('button', { name: 'Receive units' }));
    expect(await within(form).findByText('Collection date cannot be in the future')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '2026-11-01');
    await user.click(within(form).getByRole('button', { name: 'Receive units' }));
    expect(await screen.findByText('2 units of AB- added; they expire on 13 Dec 2026.')).toBeInTheDocument();
    expect(bodies).toEqual([{ bloodgroup: 'AB-', count: 2, collected_on: '2026-11-01' }]);
  });

  it('discards the expired units after a confirmation', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([unit])),
      'POST /api/admin/units/discard': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, { discarded_unit_ids: [1, 2, 3] });
      },
    });
    const { user } = renderScreen(<BloodScreen />);

    expect(await screen.findByText('3 units expired and still on the shelf.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard expired units' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard every expired unit?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard 3 units' }));

    expect(await screen.findByText('3 units discarded.')).toBeInTheDocument();
    expect(bodies).toEqual([{ expired: true }]);
  });

  it('discards a number of units with a reason and shows the conflict when there are too few', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([unit])),
      'POST /api/admin/units/discard': () =>
        jsonResponse(409, { detail: 'AB- has only 2 usable units.', code: 'not_enough_units', available: 2 }),
    });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Discard units' });

    await user.selectOptions(within(form).getByLabelText(/Blood Group/), 'AB-');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    expect(await within(form).findByText('Reason is required')).toBeInTheDocument();

    await user.type(within(form).getByLabelText(/Reason/), 'Bag damaged in transport');
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '5');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('AB- has only 2 usable units.');
  });

  it('downloads the units CSV with the token in the header, not the URL', async () => {
    localStorage.setItem('token', 'secret-token');
    const created = vi.fn(() => 'blob:units');
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = created;
        static override revokeObjectURL = vi.fn();
      },
    );
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const api = mockApi({
      'GET /api/users/me': () =>
        jsonResponse(200, { ...sampleUser, userId: 1, userType: 'admin', username: 'demo_admin' }),
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': () => jsonResponse(200, paged([unit])),
      'GET /api/admin/export/units.csv': () =>
        new Response('id,bloodgroup\n7,O+\n', {
          status: 200,
          headers: {
            'content-type': 'text/csv',
            'content-disposition': 'attachment; filename="units-2026-11-21.csv"',
          },
        }),
    });
    const { user } = renderScreen(<BloodScreen />);

    await user.click(await screen.findByRole('button', { name: 'Export units (CSV)' }));

    await waitFor(() => expect(clicks).toEqual(['units-2026-11-21.csv']));
    const exportCall = api.requests.find((request) => request.path === '/api/admin/export/units.csv');
    expect(exportCall?.headers.get('authorization')).toBe('Bearer secret-token');
    expect(String(api.fetchMock.mock.calls.find((call) => String(call[0]).includes('export'))?.[0])).toBe(
      '/api/admin/export/units.csv',
    );
    expect(created).toHaveBeenCalledTimes(1);
  });
});
