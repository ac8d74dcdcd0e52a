import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Deferral } from '@bloodbank/shared/donation-lifecycle';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, donor, paged, patient } from '../testing/fixtures';
import { PeopleScreen } from './people-screen';

type User = ReturnType<typeof renderScreen>['user'];

async function openDetails(user: User, name: string) {
  // Named with the username too: two people of one name would read the same.
  await user.click(await screen.findByRole('button', { name: new RegExp(`^Details of ${name} \\(`) }));
  return screen.findByRole('dialog', { name: new RegExp(name) });
}

/** Manage Donors with Asha Kulkarni, never deferred. */
const mockOneDonor = () =>
  mockApi({
    'GET /api/admin/dashboard': dashboardHandler,
    'GET /api/admin/donors': () => jsonResponse(200, paged([donor])),
    'GET /api/admin/donors/11/deferrals': () => jsonResponse(200, []),
  });

/** Escape on a person's details with an unsaved edit asks first; "Discard changes" then closes everything. */
async function discardByEscape(user: User) {
  await user.keyboard('{Escape}');
  await user.click(await screen.findByRole('button', { name: 'Discard changes' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('Manage Donors and Manage Patients', () => {
  it('turns a page past the end (an old link, the last rows gone) to the last page, never "No donors yet"', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': ({ query }) => {
        const page = Number(query.get('page'));
        // 45 donors: three pages; page 9999 has no rows.
        return jsonResponse(200, page === 3 ? paged([donor], 3, 20, 45) : paged([], page, 20, 45));
      },
    });
    const { router } = renderScreen(<PeopleScreen kind="donors" />, {
      path: '/admin-donor',
      initialPath: '/admin-donor?page=9999',
    });

    expect(await screen.findByText('Asha Kulkarni')).toBeInTheDocument();
    expect(screen.getByText('Showing 41–45 of 45')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=3');
    expect(screen.queryByText('No donors yet')).not.toBeInTheDocument();
  });

  it('searches, sorts and pages through the URL', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': () => jsonResponse(200, paged([donor], 1, 20, 45)),
    });
    const { user, router } = renderScreen(<PeopleScreen kind="donors" />, { path: '/admin-donor' });

    expect(await screen.findByText('Asha Kulkarni')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–20 of 45')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Search donors'), 'asha{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?search=asha'));

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(router.state.location.search).toBe('?search=asha&sort=name&order=asc'));
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    // Descending is the default order, so the URL leaves it out.
    await waitFor(() => expect(router.state.location.search).toBe('?search=asha&sort=name'));
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(router.state.location.search).toContain('page=3'));

    const last = new URL(String(api.fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost');
    expect(Object.fromEntries(last.searchParams)).toEqual({
      search: 'asha',
      sort: 'name',
      order: 'desc',
      page: '3',
      pageSize: '20',
    });
  });

  it('shows beside each donor whether they are deferred, and until when', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': () =>
        jsonResponse(
          200,
          paged([
            { ...donor, deferred: { type: 'temporary', until: '2026-12-20' } },
            {
              ...donor,
              id: 12,
              first_name: 'Meera',
              last_name: 'Iyer',
              deferred: { type: 'permanent', until: null },
            },
            { ...donor, id: 13, first_name: 'Ravi', last_name: 'Rao' },
          ]),
        ),
    });
    renderScreen(<PeopleScreen kind="donors" />);
    const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    expect(await rowOf('Asha Kulkarni')).toHaveTextContent('ActiveDeferreduntil 20 Dec 2026');
    expect(await rowOf('Meera Iyer')).toHaveTextContent('ActiveDeferredpermanently');
    expect(await rowOf('Ravi Rao')).not.toHaveTextContent('Deferred');
  });

  it('lists active or deactivated donors only, through the URL, and says so when none is', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': ({ query }) =>
        jsonResponse(200, query.get('status') === 'deactivated' ? paged([]) : paged([donor])),
    });
    const { user, router } = renderScreen(<PeopleScreen kind="donors" />, { path: '/admin-donor' });
    expect(await screen.findByText('Asha Kulkarni')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Status'), 'Active');
    await waitFor(() => expect(router.state.location.search).toBe('?status=active'));
    expect(api.requests.at(-1)?.query.get('status')).toBe('active');

    await user.selectOptions(screen.getByLabelText('Status'), 'Deactivated');
    expect(await screen.findByText('No deactivated donors')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show every donor' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Asha Kulkarni')).toBeInTheDocument();
  });

  it("links from a donor's details to their donations in Manage Donations", async () => {
    mockOneDonor();
    const { user, router } = renderScreen(<PeopleScreen kind="donors" />, { path: '/admin-donor' });
    const dialog = await openDetails(user, 'Asha Kulkarni');
    expect(within(dialog).getByText('Donations given')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('link', { name: 'View donations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-donation'));
    expect(router.state.location.search).toBe(`?donor=${donor.id}`);
    expect(router.state.location.hash).toBe('#history');
  });

  it('asks before a link out of the details throws away an unsaved edit', async () => {
    mockOneDonor();
    const { user, router } = renderScreen(<PeopleScreen kind="donors" />, { path: '/admin-donor' });
    const dialog = await openDetails(user, 'Asha Kulkarni');
    await user.type(within(dialog).getByLabelText(/Address/), ', Flat 4');

    await user.click(within(dialog).getByRole('link', { name: 'View donations' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(router.state.location.pathname).toBe('/admin-donor');
    expect(within(dialog).getByLabelText(/Address/)).toHaveValue(`${donor.address}, Flat 4`);

    await user.click(within(dialog).getByRole('link', { name: 'View donations' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Discard your changes?' })).getByRole('button', {
        name: 'Discard changes',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-donation'));
  });

  it('checks an edit with the registration rules and sends nothing invalid', async () => {
    const api = mockOneDonor();
    const { user } = renderScreen(<PeopleScreen kind="donors" />);
    const dialog = await openDetails(user, 'Asha Kulkarni');

    const save = within(dialog).getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();

    await user.clear(within(dialog).getByLabelText(/First Name/));
    await user.clear(within(dialog).getByLabelText(/^Email/));
    await user.type(within(dialog).getByLabelText(/^Email/), 'asha@example');
    await user.clear(within(dialog).getByLabelText(/Mobile Number/));
    await user.type(within(dialog).getByLabelText(/Mobile Number/), '98765');
    await user.click(save);

    expect(await within(dialog).findByText('First name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a valid 10-digit mobile number')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'PATCH')).toBe(false);
  });

  it('sends only the changed fields and puts the server messages on them', async () => {
    const bodies: unknown[] = [];
    let calls = 0;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/patients': () => jsonResponse(200, paged([patient])),
      'PATCH /api/admin/patients/21': (request) => {
        bodies.push(request.json());
        calls += 1;
        return calls === 1
          ? jsonResponse(422, { detail: 'Validation failed', errors: { age: 'Age must be less than 120' } })
          : jsonResponse(200, { ...patient, age: 41 });
      },
    });
    const { user } = renderScreen(<PeopleScreen kind="patients" />);
    const dialog = await openDetails(user, 'Kiran Sharma');

    expect(within(dialog).getByLabelText(/Doctor Name/)).toHaveValue('Dr. Rao');
    const age = within(dialog).getByLabelText(/^Age/);
    await user.clear(age);
    await user.type(age, '41');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await within(dialog).findByText('Age must be less than 120')).toBeInTheDocument();
    expect(age).toHaveAttribute('aria-invalid', 'true');
    expect(age).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ age: 41 }, { age: 41 }]);
    expect(await screen.findByText("Kiran Sharma's details were updated.")).toBeInTheDocument();
  });

  it('deactivates after a confirmation and then shows the account as deactivated', async () => {
    let deactivated = false;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': () =>
        jsonResponse(
          200,
          paged([
            deactivated ? { ...donor, is_active: false, deactivated_at: '2026-11-21T10:00:00.000Z' } : donor,
          ]),
        ),
      'DELETE /api/admin/donors/11': () => {
        deactivated = true;
        return jsonResponse(200, { ...donor, is_active: false, deactivated_at: '2026-11-21T10:00:00.000Z' });
      },
    });
    const { user } = renderScreen(<PeopleScreen kind="donors" />);

    await user.click(await screen.findByRole('button', { name: 'Deactivate Asha Kulkarni (asha.k)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Asha Kulkarni?' });
    expect(dialog).toHaveTextContent('will no longer be able to sign in');
    expect(dialog).toHaveTextContent('A booking they have waiting is cancelled, and their place freed.');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate donor' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = screen.getAllByRole('row')[1]!;
    await waitFor(() => expect(row).toHaveTextContent('Deactivated'));
    expect(within(row).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
    expect(await screen.findByText('Asha Kulkarni can no longer sign in.')).toBeInTheDocument();
  });

  it("closes only the confirmation on Escape when it opened over a patient's details, keeping the edits", async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/patients': () => jsonResponse(200, paged([patient])),
    });
    const { user } = renderScreen(<PeopleScreen kind="patients" />);
    const drawer = await openDetails(user, 'Kiran Sharma');
    await user.clear(within(drawer).getByLabelText(/^Address/));
    await user.type(within(drawer).getByLabelText(/^Address/), '9 Lake Road');

    await user.click(within(drawer).getByRole('button', { name: 'Deactivate patient' }));
    expect(await screen.findByRole('dialog', { name: 'Deactivate Kiran Sharma?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Deactivate Kiran Sharma?' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('dialog', { name: /Kiran Sharma/ })).toBe(drawer);
    expect(within(drawer).getByLabelText(/^Address/)).toHaveValue('9 Lake Road');

    // The details, top-most now, answer the next Escape: with the edit unsaved, they ask first.
    await discardByEscape(user);
  });

  it('asks before Escape throws away unsaved edits; closes at once without any', async () => {
    mockOneDonor();
    const { user } = renderScreen(<PeopleScreen kind="donors" />);
    let drawer = await openDetails(user, 'Asha Kulkarni');
    // Nothing changed: Escape closes.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    drawer = await openDetails(user, 'Asha Kulkarni');
    await user.clear(within(drawer).getByLabelText(/Mobile Number/));
    await user.type(within(drawer).getByLabelText(/Mobile Number/), '9123456780');
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(ask).toHaveTextContent("The changes to Asha Kulkarni's details are not saved yet.");
    // Keep editing: the typed number is still there.
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).not.toBeInTheDocument(),
    );
    expect(within(drawer).getByLabelText(/Mobile Number/)).toHaveValue('9123456780');

    await discardByEscape(user);
  });

  it('says when a search finds nobody and clears it', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/patients': () => jsonResponse(200, paged([])),
    });
    const { user, router } = renderScreen(<PeopleScreen kind="patients" />, { initialPath: '/?search=zzz' });

    expect(await screen.findByRole('heading', { name: 'No patients match "zzz"' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search patients')).toHaveValue('zzz');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('heading', { name: 'No patients yet' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search patients')).toHaveValue('');
  });

  describe("a donor's deferrals", () => {
    const deferral: Deferral = {
      id: 5,
      donor_id: 11,
      type: 'temporary',
      until: '2026-12-25',
      reason: 'Haemoglobin 11.8 g/dL is below 12.5 g/dL.',
      source: 'screening',
      donation_id: 52,
      created_by: 'admin',
      created_at: '2026-11-25T09:00:00.000Z',
      active: true,
      lifted_at: null,
      lifted_by: null,
      lift_reason: null,
    };
    const lifted: Deferral = {
      ...deferral,
      id: 4,
      type: 'permanent',
      until: null,
      reason: 'Recorded by mistake',
      source: 'manual',
      donation_id: null,
      active: false,
      lifted_at: '2026-11-01T09:00:00.000Z',
      lifted_by: 'chief',
      lift_reason: 'Wrong donor',
    };

    it('lists them, adds one checked with the shared rules, and lifts one with a reason', async () => {
      const posted: unknown[] = [];
      const api = mockApi({
        'GET /api/admin/dashboard': dashboardHandler,
        'GET /api/admin/donors': () => jsonResponse(200, paged([donor])),
        'GET /api/admin/donors/11/deferrals': () => jsonResponse(200, [deferral, lifted]),
        'POST /api/admin/donors/11/deferrals': (request) => {
          posted.push(request.json());
          return jsonResponse(201, {
            ...deferral,
            id: 6,
            type: 'permanent',
            until: null,
            source: 'manual',
            cancelled_booking: { id: 90, date: '2026-12-03' },
          });
        },
        'POST /api/admin/deferrals/5/lift': (request) => {
          posted.push(request.json());
          return jsonResponse(200, { ...deferral, active: false, lifted_at: '2026-11-25T10:00:00.000Z' });
        },
      });
      const { user } = renderScreen(<PeopleScreen kind="donors" />);
      const drawer = await openDetails(user, 'Asha Kulkarni');

      const list = await within(drawer).findByRole('list', { name: 'Deferrals' });
      const [active, old] = within(list).getAllByRole('listitem');
      expect(active).toHaveTextContent('Temporary, until 25 Dec 2026');
      expect(active).toHaveTextContent('Failed screening (donation #52)');
      expect(active).toHaveTextContent('Active');
      expect(old).toHaveTextContent('Permanent');
      expect(old).toHaveTextContent('Lifted by chief');
      expect(old).toHaveTextContent('Wrong donor');
      expect(within(old!).queryByRole('button', { name: /Lift/ })).not.toBeInTheDocument();

      await user.click(within(drawer).getByRole('button', { name: 'Add deferral' }));
      let dialog = await screen.findByRole('dialog', { name: 'Defer Asha Kulkarni' });
      await user.click(within(dialog).getByRole('button', { name: 'Defer donor' }));
      expect(await within(dialog).findByText('End date is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Reason is required')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('radio', { name: 'Permanent' }));
      expect(within(dialog).queryByLabelText(/End date/)).not.toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/^Reason/), 'Told us of a condition');
      await user.click(within(dialog).getByRole('button', { name: 'Defer donor' }));
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Defer Asha Kulkarni' })).not.toBeInTheDocument(),
      );
      // The booking it cancelled is said, as the donor is told of it.
      expect(
        await screen.findByText(
          'Asha Kulkarni is deferred permanently. Their booking for 3 Dec 2026 is cancelled, and they are told.',
        ),
      ).toBeInTheDocument();

      await user.click(
        within(drawer).getByRole('button', { name: 'Lift deferral: Temporary, until 25 Dec 2026' }),
      );
      dialog = await screen.findByRole('dialog', { name: 'Lift deferral' });
      // The deferral as the list writes it, month capitalised.
      expect(dialog).toHaveTextContent(/Asha Kulkarni: Temporary, until 25 Dec 2026 \(/);
      await user.click(within(dialog).getByRole('button', { name: 'Lift deferral' }));
      expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/Reason for lifting/), 'Retested at 13.2');
      await user.click(within(dialog).getByRole('button', { name: 'Lift deferral' }));
      expect(await screen.findByText('Asha Kulkarni may book a donation again.')).toBeInTheDocument();

      expect(posted).toEqual([
        { type: 'permanent', reason: 'Told us of a condition' },
        { reason: 'Retested at 13.2' },
      ]);
      expect(
        api.requests.filter((request) => request.path === '/api/admin/donors/11/deferrals').length,
      ).toBeGreaterThan(2);
    });

    it('says the donor is still deferred when another deferral stays active after a lift', async () => {
      const other: Deferral = {
        ...deferral,
        id: 7,
        until: '2027-02-01',
        reason: 'Travel',
        source: 'manual',
        donation_id: null,
      };
      mockApi({
        'GET /api/admin/dashboard': dashboardHandler,
        'GET /api/admin/donors': () => jsonResponse(200, paged([donor])),
        'GET /api/admin/donors/11/deferrals': () => jsonResponse(200, [other, deferral]),
        'POST /api/admin/deferrals/5/lift': () =>
          jsonResponse(200, { ...deferral, active: false, lifted_at: '2026-11-25T10:00:00.000Z' }),
      });
      const { user } = renderScreen(<PeopleScreen kind="donors" />);
      const drawer = await openDetails(user, 'Asha Kulkarni');

      await user.click(await within(drawer).findByRole('button', { name: 'Add deferral' }));
      const adding = await screen.findByRole('dialog', { name: 'Defer Asha Kulkarni' });
      expect(adding).toHaveTextContent(
        'A booking on a day this deferral covers is cancelled, and the donor is told.',
      );
      await user.click(within(adding).getByRole('button', { name: 'Cancel' }));

      await user.click(
        within(drawer).getByRole('button', { name: 'Lift deferral: Temporary, until 25 Dec 2026' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Lift deferral' });
      await user.type(within(dialog).getByLabelText(/Reason for lifting/), 'Retested at 13.2');
      await user.click(within(dialog).getByRole('button', { name: 'Lift deferral' }));
      expect(
        await screen.findByText('Asha Kulkarni is still deferred by another deferral.'),
      ).toBeInTheDocument();
      expect(screen.queryByText('Asha Kulkarni may book a donation again.')).not.toBeInTheDocument();
    });

    it.each([
      { open: 'Add deferral', dialog: 'Defer Asha Kulkarni' },
      { open: 'Lift deferral: Temporary, until 25 Dec 2026', dialog: 'Lift deferral' },
    ])(
      "closes only the $dialog dialog on Escape, keeping the donor's details and unsaved edits",
      async (nested) => {
        mockApi({
          'GET /api/admin/dashboard': dashboardHandler,
          'GET /api/admin/donors': () => jsonResponse(200, paged([donor])),
          'GET /api/admin/donors/11/deferrals': () => jsonResponse(200, [deferral]),
        });
        const { user } = renderScreen(<PeopleScreen kind="donors" />);
        const drawer = await openDetails(user, 'Asha Kulkarni');
        await user.clear(within(drawer).getByLabelText(/^Address/));
        await user.type(within(drawer).getByLabelText(/^Address/), '9 Lake Road');

        await user.click(await within(drawer).findByRole('button', { name: nested.open }));
        const dialog = await screen.findByRole('dialog', { name: nested.dialog });
        await user.type(within(dialog).getByLabelText(/Reason/), 'Travel');
        await user.keyboard('{Escape}');

        await waitFor(() =>
          expect(screen.queryByRole('dialog', { name: nested.dialog })).not.toBeInTheDocument(),
        );
        expect(screen.getByRole('dialog', { name: /Asha Kulkarni \(donor\)/ })).toBe(drawer);
        expect(within(drawer).getByLabelText(/^Address/)).toHaveValue('9 Lake Road');
        expect(within(drawer).getByRole('button', { name: 'Save changes' })).toBeEnabled();

        // The details, top-most now, ask before the next Escape throws the edit away.
        await discardByEscape(user);
      },
    );

    it('says when a donor has never been deferred', async () => {
      mockOneDonor();
      const { user } = renderScreen(<PeopleScreen kind="donors" />);
      const drawer = await openDetails(user, 'Asha Kulkarni');
      expect(await within(drawer).findByText('Asha Kulkarni has never been deferred.')).toBeInTheDocument();
    });
  });
});
