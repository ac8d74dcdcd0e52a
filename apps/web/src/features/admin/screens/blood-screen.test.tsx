import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BloodUnit } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { jsonResponse, mockApi, sampleUser, type MockRequest } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { formatDate } from '@/lib/format';
import { availableUnit, dashboard, dashboardHandler, paged } from '../testing/fixtures';
import { BloodScreen } from './blood-screen';

/** A red-cell unit on the shelf (the admin fixtures'). */
const unit = availableUnit;

/** The unit list answers `items`; the list of units in testing and on hold answers `held`. */
const shelf =
  (items: BloodUnit[], held: BloodUnit[] = []) =>
  (request: MockRequest) =>
    jsonResponse(200, paged(request.query.get('status') === 'quarantined' ? held : items));

describe('Manage Blood', () => {
  it('finds a bag by the number on its label, whatever its status, and says when the text is not a number', async () => {
    const issued: BloodUnit = {
      ...unit,
      id: 2879,
      status: 'issued',
      request_id: 4,
      issued_at: '2026-11-20T10:00:00.000Z',
    };
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': (request) =>
        request.query.get('unit') === '2879' ? jsonResponse(200, paged([issued])) : shelf([unit])(request),
    });
    const { user } = renderScreen(<BloodScreen />);
    const units = await screen.findByRole('region', { name: 'Units' });
    expect(await within(units).findByText('#7')).toBeInTheDocument();

    await user.type(within(units).getByLabelText('Unit number'), '#2879{Enter}');
    expect(await within(units).findByText('#2879')).toBeInTheDocument();
    expect(within(units).getByText(/Request #4/)).toBeInTheDocument();
    // Issued, though the status filter says available: the number finds the bag whatever became of it.
    const sent = api.requests.filter(
      (request) => request.path === '/api/admin/units' && request.query.has('unit'),
    );
    expect(sent.at(-1)!.query.toString()).toBe('unit=2879&page=1&pageSize=20');
    expect(within(units).getByLabelText('Status')).toBeDisabled();

    await user.clear(within(units).getByLabelText('Unit number'));
    await user.type(within(units).getByLabelText('Unit number'), 'abc{Enter}');
    expect(await within(units).findByText('Enter a unit number')).toBeInTheDocument();
    expect(within(units).getByLabelText('Unit number')).toHaveAttribute('aria-invalid', 'true');
    expect(await within(units).findByText('#7')).toBeInTheDocument();
  });

  it('discards one bag on the shelf by its number, with a reason it asks for', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit, { ...unit, id: 8, status: 'issued', request_id: 4 }]),
      'POST /api/admin/units/discard': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, { discarded_unit_ids: [7] });
      },
    });
    const { user } = renderScreen(<BloodScreen />);
    // Only a unit on the shelf can be discarded.
    await user.click(await screen.findByRole('button', { name: 'Discard unit #7' }));
    expect(screen.queryByRole('button', { name: 'Discard unit #8' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Discard unit #7?' });
    expect(dialog).toHaveTextContent('O+ red cells');

    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Reason/), 'Bag leaking at the seal');
    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ unit_ids: [7], reason: 'Bag leaking at the seal' }]);
    expect(await screen.findByText('Unit #7 (O+ red cells) was discarded.')).toBeInTheDocument();
    // Its row (and button) leave the shelf's list: focus goes on from the Units heading.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Units' })).toHaveFocus());
  });

  it('says a released unit went back to testing when its own donation awaits its results', async () => {
    const held: BloodUnit = {
      ...unit,
      id: 31,
      status: 'quarantined',
      hold_reason: 'lookback',
      donation_id: 4,
    };
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit], [held]),
      'POST /api/admin/units/31/release': () => jsonResponse(200, { ...held, hold_reason: 'testing' }),
    });
    const { user } = renderScreen(<BloodScreen />);
    const section = await screen.findByRole('region', { name: 'In Testing and On Hold' });
    await user.click(await within(section).findByRole('button', { name: 'Release unit #31' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Release unit #31?' })).getByRole('button', {
        name: 'Release unit',
      }),
    );
    expect(
      await screen.findByText("Unit #31 (O+) is back in testing until its donation's results are in."),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: 'In Testing and On Hold' })).toHaveFocus(),
    );
  });

  it("does not greet the next unit's discard with the last one's refusal", async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit, { ...unit, id: 9 }]),
      'POST /api/admin/units/discard': () =>
        jsonResponse(409, { detail: 'Unit #7 is not available any more.', unit_ids: [7] }),
    });
    const { user } = renderScreen(<BloodScreen />);
    await user.click(await screen.findByRole('button', { name: 'Discard unit #7' }));
    let dialog = await screen.findByRole('dialog', { name: 'Discard unit #7?' });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Leaking');
    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unit #7 is not available any more.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Discard unit #9' }));
    dialog = await screen.findByRole('dialog', { name: 'Discard unit #9?' });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens at the part a link names: the Receive Units form, its first field focused', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([unit]) });
    renderScreen(<BloodScreen />, { path: '/admin-blood', initialPath: '/admin-blood#receive-units' });
    const form = await screen.findByRole('form', { name: 'Receive units' });
    await waitFor(() => expect(within(form).getByLabelText(/^Blood Group/)).toHaveFocus());
  });

  it('has a link at its top that moves to the bag search and focuses it, keeping the filters', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([unit]) });
    const scrolled = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    const { user, router } = renderScreen(<BloodScreen />, {
      path: '/admin-blood',
      initialPath: '/admin-blood?status=all',
    });
    const link = await screen.findByRole('link', { name: 'Find a bag by its number' });
    // Above everything else on the page, which on a phone puts the search thousands of pixels down.
    expect(
      link.compareDocumentPosition(screen.getByRole('heading', { name: 'Stock by Blood Group' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    const search = within(screen.getByRole('region', { name: 'Units' })).getByLabelText('Unit number');

    await user.click(link);
    expect(search).toHaveFocus();
    expect(scrolled.mock.contexts.at(-1)).toContainElement(search);
    // The part's heading comes along, below the sticky header, so the field is not orphaned at the top.
    expect(scrolled.mock.contexts.at(-1)).toContainElement(screen.getByRole('heading', { name: 'Units' }));
    expect(router.state.location.search).toBe('?status=all');
    // Again, after moving away: it still works.
    link.focus();
    await user.click(link);
    expect(search).toHaveFocus();
  });

  it('opens at the bag search when the address names it', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([unit]) });
    renderScreen(<BloodScreen />, { path: '/admin-blood', initialPath: '/admin-blood#find-unit' });
    const units = await screen.findByRole('region', { name: 'Units' });
    await waitFor(() => expect(within(units).getByLabelText('Unit number')).toHaveFocus());
  });

  it('says the count discard takes the first-expiring bags, and links to the search for one particular bag', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([unit]) });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Discard units' });
    expect(form).toHaveAccessibleDescription(
      "Discards the group's first-expiring bags. For one particular bag, find it by its number and use its Discard button.",
    );

    await user.click(within(form).getByRole('link', { name: 'find it by its number' }));
    expect(within(screen.getByRole('region', { name: 'Units' })).getByLabelText('Unit number')).toHaveFocus();
  });

  it('opens at its top for a malformed part in the address, with no error', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([unit]) });
    renderScreen(<BloodScreen />, { path: '/admin-blood', initialPath: '/admin-blood#%E0%A4%A' });
    expect(await screen.findByRole('form', { name: 'Receive units' })).toBeInTheDocument();
  });

  it('shows available, expiring and expired units per group, and the shelf by default', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit]),
    });
    renderScreen(<BloodScreen />);

    const aPlus = await screen.findByRole('button', { name: /A\+.*Show the A\+ units/ });
    expect(aPlus).toHaveTextContent('12 available');
    expect(aPlus).toHaveTextContent('2 expiring soon (any component)');
    expect(screen.getByRole('button', { name: /O\+.*Show the O\+ units/ })).toHaveTextContent('3 expired');
    expect(await screen.findByText('Donation #3')).toBeInTheDocument();
    const unitsCall = api.requests.find((request) => request.path === '/api/admin/units');
    expect(unitsCall).toBeDefined();
    const statuses = api.requests
      .filter((request) => request.path === '/api/admin/units')
      .map((request) => request.query.get('status'));
    expect(statuses).toContain('available');
    expect(statuses).toContain('quarantined');
  });

  it('filters the unit list by a group card and by status', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([]),
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
      'GET /api/admin/units': shelf([unit]),
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
    expect(
      await screen.findByText('2 units of AB- red cells added; they expire on 13 Dec 2026.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([
      { bloodgroup: 'AB-', component: 'red_cells', count: 2, collected_on: '2026-11-01' },
    ]);

    // Another component: the shelf life the bank is configured with (from the dashboard) is shown, and it is sent.
    expect(within(form).getByTestId('receive-shelf-life')).toHaveTextContent(
      'Shelf life of red cells: 42 days after collection.',
    );
    await user.selectOptions(within(form).getByLabelText(/Component/), 'plasma');
    expect(within(form).getByTestId('receive-shelf-life')).toHaveTextContent(
      'Shelf life of plasma: 364 days after collection.',
    );
    await user.click(within(form).getByRole('button', { name: 'Receive units' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ bloodgroup: 'AB-', component: 'plasma' });
  });

  it('discards the expired units after a confirmation', async () => {
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit]),
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
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit]),
      'POST /api/admin/units/discard': () =>
        jsonResponse(409, { detail: 'AB- has only 1 usable unit.', code: 'not_enough_units', available: 1 }),
    });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Discard units' });

    await user.selectOptions(within(form).getByLabelText(/Blood Group/), 'AB-');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    expect(await within(form).findByText('Reason is required')).toBeInTheDocument();

    // More than the shelf holds (AB- has 2 red-cell units): said on the field, before any "Are you sure?".
    await user.type(within(form).getByLabelText(/Reason/), 'Bag damaged in transport');
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '5');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    expect(
      await within(form).findByText('Only 2 units of AB- red cells are available to discard.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    // Within the stock shown, but taken meanwhile: the server's refusal, on the form.
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '2');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    await user.click(await screen.findByRole('button', { name: 'Discard 2 units' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('AB- has only 1 usable unit.');
    // Nothing typed is lost.
    expect(within(form).getByLabelText(/Reason/)).toHaveValue('Bag damaged in transport');
  });

  it('reads the stock again before refusing a count: units received meanwhile by someone else count', async () => {
    let dashboards = 0;
    mockApi({
      // AB- has 2 red-cell units when the page opens; another admin then receives 4 more.
      'GET /api/admin/dashboard': () => {
        dashboards += 1;
        const fresh = dashboard();
        if (dashboards > 1)
          fresh.inventory = fresh.inventory.map((row) =>
            row.bloodgroup === 'AB-'
              ? { ...row, units: 6, components: { ...row.components, red_cells: 6 } }
              : row,
          );
        return jsonResponse(200, fresh);
      },
      'GET /api/admin/units': shelf([unit]),
    });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Discard units' });
    await user.selectOptions(within(form).getByLabelText(/Blood Group/), 'AB-');
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '5');
    await user.type(within(form).getByLabelText(/Reason/), 'Recall of a batch');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));
    expect(await screen.findByRole('dialog', { name: /Discard 5 units/ })).toBeInTheDocument();
    expect(within(form).queryByText(/available to discard/)).not.toBeInTheDocument();
  });

  it('asks before discarding a number of units, and a double-click on the confirmation discards once', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit]),
      'POST /api/admin/units/discard': () => jsonResponse(200, { discarded_unit_ids: [31, 32] }),
    });
    const { user } = renderScreen(<BloodScreen />);
    const form = await screen.findByRole('form', { name: 'Discard units' });
    await user.selectOptions(within(form).getByLabelText(/Blood Group/), 'O+');
    await user.selectOptions(within(form).getByLabelText(/Component/), 'plasma');
    await user.clear(within(form).getByLabelText(/Number of units/));
    await user.type(within(form).getByLabelText(/Number of units/), '2');
    await user.type(within(form).getByLabelText(/Reason/), 'Freezer failure');
    await user.click(within(form).getByRole('button', { name: 'Discard units' }));

    const dialog = await screen.findByRole('dialog', { name: 'Discard 2 units of O+ plasma?' });
    expect(dialog).toHaveTextContent(
      'The 2 units of O+ plasma that expire first will be taken out of stock for good (reason "Freezer failure").',
    );
    const discards = () => api.requests.filter((request) => request.path === '/api/admin/units/discard');
    expect(discards()).toHaveLength(0);

    await user.dblClick(within(dialog).getByRole('button', { name: 'Discard 2 units' }));
    expect(await screen.findByText('2 units of O+ plasma discarded.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /Discard 2 units/ })).not.toBeInTheDocument(),
    );
    expect(discards().map((request) => request.json())).toEqual([
      { bloodgroup: 'O+', component: 'plasma', count: 2, reason: 'Freezer failure' },
    ]);
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
      'GET /api/admin/units': shelf([unit]),
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

  it('lists units in testing and on lookback hold apart from stock, and releases a held unit after confirming', async () => {
    const testing: BloodUnit = {
      ...unit,
      id: 30,
      status: 'quarantined',
      hold_reason: 'testing',
      donation_id: 8,
    };
    const held: BloodUnit = {
      ...unit,
      id: 31,
      status: 'quarantined',
      hold_reason: 'lookback',
      donation_id: 4,
      donor: { id: 17, name: 'Meera Iyer', username: 'meera.iyer' },
    };
    let releases = 0;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit], [testing, held]),
      'POST /api/admin/units/31/release': () => {
        releases += 1;
        return jsonResponse(200, { ...held, status: 'available', hold_reason: null });
      },
    });
    const { user } = renderScreen(<BloodScreen />);

    expect(await screen.findByRole('button', { name: /B\+.*Show the B\+ units/ })).toHaveTextContent(
      '2 in testing',
    );
    const section = screen.getByRole('region', { name: 'In Testing and On Hold' });
    const rows = await within(section).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('#30');
    expect(rows[1]).toHaveTextContent('In testing');
    expect(rows[1]).toHaveTextContent('Decided by its test results');
    expect(within(rows[1]!).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Lookback hold');
    // Whose hold it is, and a way to find them.
    expect(within(rows[2]!).getByRole('link', { name: 'Meera Iyer' })).toHaveAttribute(
      'href',
      '/admin-donor?search=meera.iyer',
    );

    await user.click(within(section).getByRole('button', { name: 'Release unit #31' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release unit #31?' });
    expect(releases).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Release unit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(releases).toBe(1);
    expect(await screen.findByText('Unit #31 (O+) is available again.')).toBeInTheDocument();
  });

  it("filters by component and shows each unit's component, with the whole-blood unit a component came from", async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([
        { ...unit, id: 40, component: 'plasma', parent_unit_id: 12 },
        { ...unit, id: 41, component: 'whole_blood' },
      ]),
    });
    const { user, router } = renderScreen(<BloodScreen />);

    const list = await screen.findByRole('table', { name: 'Blood units' });
    const rows = await within(list).findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Plasmafrom unit #12');
    expect(rows[2]).toHaveTextContent('Whole blood');
    expect(screen.getByRole('button', { name: /O\+.*Show the O\+ units/ })).toHaveTextContent(
      'Whole blood 5 · Red cells 10',
    );
    expect(screen.getByRole('button', { name: /O\+.*Show the O\+ units/ })).toHaveTextContent(
      'Plasma 7 · Platelets 1',
    );

    await user.selectOptions(
      screen.getByLabelText('Component', { selector: 'select:not([name])' }),
      'platelets',
    );
    await waitFor(() => expect(router.state.location.search).toBe('?component=platelets'));
    await waitFor(() => {
      const last = api.requests.filter((request) => request.path === '/api/admin/units').at(-1);
      expect(last?.query.get('component')).toBe('platelets');
    });
  });

  it('processes a whole-blood unit collected today into the chosen components and lists the new units', async () => {
    const today = todayIn();
    const whole: BloodUnit = {
      ...unit,
      id: 50,
      component: 'whole_blood',
      collected_on: today,
      expires_on: addDays(today, 35),
    };
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([whole, { ...unit, id: 51 }]),
      'POST /api/admin/units/50/process': (request) => {
        bodies.push(request.json());
        return jsonResponse(200, {
          units: [
            { ...whole, id: 60, component: 'red_cells', parent_unit_id: 50, expires_on: addDays(today, 42) },
            { ...whole, id: 61, component: 'plasma', parent_unit_id: 50, expires_on: addDays(today, 365) },
          ],
        });
      },
    });
    const { user } = renderScreen(<BloodScreen />);

    // Only whole blood can be processed.
    expect(await screen.findByRole('button', { name: 'Process unit #50' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Process unit #51' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Process unit #50' }));

    const dialog = await screen.findByRole('dialog', { name: 'Process unit #50' });
    const group = within(dialog).getByRole('group', { name: 'Separate into' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    boxes.forEach((box) => expect(box).toBeChecked());
    expect(within(dialog).getByRole('checkbox', { name: 'Platelets' })).toBeEnabled();
    expect(group).toHaveTextContent(`Shelf life 42 days: expires ${formatDate(addDays(today, 42))}`);
    expect(group).toHaveTextContent(`Shelf life 364 days: expires ${formatDate(addDays(today, 364))}`);
    expect(group).toHaveTextContent(`Shelf life 5 days: expires ${formatDate(addDays(today, 5))}`);

    // Nothing chosen: nothing sent.
    for (const name of ['Red cells', 'Plasma', 'Platelets'])
      await user.click(within(dialog).getByRole('checkbox', { name }));
    await user.click(within(dialog).getByRole('button', { name: 'Process unit' }));
    expect(await within(dialog).findByText('Choose at least one component')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    // Red cells left out: said, and named on the button, before anything is sent.
    await user.click(within(dialog).getByRole('checkbox', { name: 'Plasma' }));
    expect(within(dialog).getByTestId('components-lost')).toHaveTextContent(
      'Red cells and platelets will not be made, and cannot be separated from this unit later.',
    );
    expect(
      within(dialog).getByRole('button', { name: 'Process without red cells and platelets' }),
    ).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: 'Process unit' })).not.toBeInTheDocument();

    // Red cells and plasma, without today's platelets.
    await user.click(within(dialog).getByRole('checkbox', { name: 'Red cells' }));
    expect(within(dialog).getByTestId('components-lost')).toHaveTextContent('Platelets will not be made');
    await user.click(within(dialog).getByRole('button', { name: 'Process without platelets' }));

    const result = await within(dialog).findByRole('table', { name: 'New component units' });
    expect(bodies).toEqual([{ components: ['red_cells', 'plasma'] }]);
    const rows = within(result).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(`#60Red cells${formatDate(addDays(today, 42))}`);
    expect(dialog).toHaveTextContent('They are on the shelf now');
    expect(rows[2]).toHaveTextContent(`#61Plasma${formatDate(addDays(today, 365))}`);
    expect(
      within(dialog).getByRole('heading', { name: 'Unit #50 was separated into 2 units' }),
    ).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('disables platelets after the collection day, says why, and shows a refusal in the dialog', async () => {
    const yesterday = addDays(todayIn(), -1);
    const testing: BloodUnit = {
      ...unit,
      id: 70,
      component: 'whole_blood',
      status: 'quarantined',
      hold_reason: 'testing',
      collected_on: yesterday,
      expires_on: addDays(yesterday, 35),
    };
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([], [testing]),
      'POST /api/admin/units/70/process': () =>
        jsonResponse(409, {
          detail: 'This unit has already been separated into components.',
          code: 'already_processed',
        }),
    });
    const { user } = renderScreen(<BloodScreen />);

    // A unit in testing can be separated too: its components stay in testing.
    const section = screen.getByRole('region', { name: 'In Testing and On Hold' });
    await user.click(await within(section).findByRole('button', { name: 'Process unit #70' }));
    const dialog = await screen.findByRole('dialog', { name: 'Process unit #70' });
    expect(dialog).toHaveTextContent('its components stay quarantined');
    const platelets = within(dialog).getByRole('checkbox', { name: 'Platelets' });
    expect(platelets).toBeDisabled();
    expect(platelets).not.toBeChecked();
    expect(dialog).toHaveTextContent(
      `Platelets must be separated on the day of collection. This unit was collected on ${formatDate(yesterday)}.`,
    );

    await user.click(within(dialog).getByRole('button', { name: 'Process unit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This unit has already been separated into components.',
    );
    expect(within(dialog).getByRole('button', { name: 'Process unit' })).toBeEnabled();
  });

  it('offers the quarantined status in the unit filter', async () => {
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler, 'GET /api/admin/units': shelf([]) });
    renderScreen(<BloodScreen />);
    const filter = await screen.findByLabelText('Status');
    expect(
      within(filter).getByRole('option', { name: 'Quarantined (in testing or on hold)' }),
    ).toBeInTheDocument();
  });

  it('discards a unit on a lookback hold with the reason staff give, and shows a refusal in the dialog', async () => {
    const held: BloodUnit = {
      ...unit,
      id: 31,
      status: 'quarantined',
      hold_reason: 'lookback',
      donation_id: 4,
    };
    const bodies: unknown[] = [];
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': shelf([unit], [held]),
      'POST /api/admin/units/discard': (request) => {
        bodies.push(request.json());
        return bodies.length === 1
          ? jsonResponse(409, { detail: 'Unit #31 is not available any more.', unit_ids: [31] })
          : jsonResponse(200, { discarded_unit_ids: [31] });
      },
    });
    const { user } = renderScreen(<BloodScreen />);

    const section = await screen.findByRole('region', { name: 'In Testing and On Hold' });
    await user.click(await within(section).findByRole('button', { name: 'Discard unit #31' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unit #31?' });
    // The lookback's outcome goes to the audit log in staff's words, as every discard's does.
    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(within(dialog).getByText('Reason is required')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByLabelText(/Reason/), 'Lookback: confirmatory test positive');
    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unit #31 is not available any more.');
    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Unit #31 (O+ red cells) was discarded.')).toBeInTheDocument();
    expect(bodies).toEqual([
      { unit_ids: [31], reason: 'Lookback: confirmatory test positive' },
      { unit_ids: [31], reason: 'Lookback: confirmatory test positive' },
    ]);
  });

  it.each([
    {
      action: 'Discard',
      path: '/api/admin/units/discard',
      refusal: 'Unit 31 cannot be discarded: only units in stock or in testing can.',
      done: 'Unit #31 (O+ red cells) was discarded.',
    },
    {
      action: 'Release',
      path: '/api/admin/units/31/release',
      refusal: 'Only a unit on a lookback hold can be released.',
      done: 'Unit #31 (O+) is available again.',
    },
  ])(
    'sends one request when $action unit is double-clicked, closes the dialog and says it is done',
    async ({ action, path, refusal, done }) => {
      const held: BloodUnit = {
        ...unit,
        id: 31,
        status: 'quarantined',
        hold_reason: 'lookback',
        donation_id: 4,
      };
      let calls = 0;
      // The first request changes the unit; a second one would be refused, as the server does.
      const answer = () => {
        calls += 1;
        if (calls > 1) return jsonResponse(409, { detail: refusal });
        return action === 'Discard'
          ? jsonResponse(200, { discarded_unit_ids: [31] })
          : jsonResponse(200, { ...held, status: 'available', hold_reason: null });
      };
      const api = mockApi({
        'GET /api/admin/dashboard': dashboardHandler,
        'GET /api/admin/units': shelf([unit], [held]),
        [`POST ${path}`]: answer,
      });
      const { user } = renderScreen(<BloodScreen />);

      const section = await screen.findByRole('region', { name: 'In Testing and On Hold' });
      await user.click(await within(section).findByRole('button', { name: `${action} unit #31` }));
      const dialog = await screen.findByRole('dialog', { name: `${action} unit #31?` });
      if (action === 'Discard') await user.type(within(dialog).getByLabelText(/Reason/), 'Lookback');
      // Both clicks of a double-click arrive before React has drawn the button busy.
      const confirm = within(dialog).getByRole('button', { name: `${action} unit` });
      fireEvent.click(confirm);
      fireEvent.click(confirm);

      expect(await screen.findByText(done)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(
        api.requests.filter((request) => request.method === 'POST').map((request) => request.path),
      ).toEqual([path]);
    },
  );
});
