import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import type { Site, SiteDay } from '@bloodbank/shared/sites';
import { deferred, jsonResponse, mockApi, type MockRequest } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, pendingDonation } from '../testing/fixtures';
import { SitesScreen } from './sites-screen';
import { formatDate } from '@/lib/format';

/**
 * Today, read when a list is answered, not when this file loads: a run that crosses midnight had
 * fixtures of one day and a screen of the next ("Check in" is offered on the booked day only).
 */
const today = () => todayIn();

const cityCentre: Site = {
  id: 4,
  name: 'City Centre Donor Unit',
  address: '12 Park Street, Kolkata',
  hours: {
    monday: { open: '08:00', close: '16:00' },
    tuesday: { open: '08:00', close: '16:00' },
    wednesday: { open: '08:00', close: '16:00' },
    thursday: { open: '08:00', close: '16:00' },
    friday: { open: '08:00', close: '16:00' },
    saturday: { open: '09:00', close: '13:00' },
    sunday: null,
  },
  slot_minutes: 15,
  capacity: 2,
  closed_dates: ['2026-12-25', '2027-01-01'],
  active: true,
};
const oldHall: Site = {
  ...cityCentre,
  id: 5,
  name: 'Old Town Hall',
  address: '3 Market Road',
  hours: { ...cityCentre.hours, saturday: null },
  closed_dates: [],
  active: false,
};

function siteDay(overrides: Partial<SiteDay> = {}): SiteDay {
  return {
    site: cityCentre,
    date: today(),
    open: true,
    hours: { open: '08:00', close: '16:00' },
    counts: { booked: 1, checked_in: 1, collected: 1, deferred: 0, no_show: 0 },
    appointments: [
      {
        donation_id: 61,
        time: '09:00',
        donor_id: 11,
        donor_name: 'Asha Kulkarni',
        bloodgroup: 'B-',
        units: 1,
        state: 'collected',
        late: false,
        checked_in_at: '2026-11-25T03:31:00.000Z',
        disease: 'None',
        lastDonation: null,
      },
      {
        donation_id: 62,
        time: '09:15',
        donor_id: 12,
        donor_name: 'Ravi Reddy',
        bloodgroup: 'O+',
        units: 2,
        state: 'checked_in',
        late: false,
        checked_in_at: '2026-11-25T03:44:00.000Z',
        disease: 'Diabetes',
        lastDonation: addDays(today(), -60),
      },
      {
        donation_id: 63,
        time: '10:30',
        donor_id: 13,
        donor_name: 'Meera Das',
        bloodgroup: 'A+',
        units: 1,
        state: 'booked',
        late: false,
        checked_in_at: null,
        disease: 'None',
        lastDonation: null,
      },
    ],
    ...overrides,
  };
}

function renderSites(handlers: Parameters<typeof mockApi>[0] = {}, initialPath = '/admin-sites') {
  const api = mockApi({
    'GET /api/admin/dashboard': dashboardHandler,
    'GET /api/admin/sites': () => jsonResponse(200, [cityCentre, oldHall]),
    'GET /api/admin/sites/4/day': (request: MockRequest) =>
      jsonResponse(200, siteDay({ date: request.query.get('date') ?? today() })),
    'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
    ...handlers,
  });
  return { api, ...renderScreen(<SitesScreen />, { path: '/admin-sites', initialPath }) };
}

const sitesRegion = () => screen.getByRole('region', { name: 'Donation sites' });
const dayRegion = () => screen.getByRole('region', { name: 'Day list' });

describe('Sites and Appointments', () => {
  it('lists the sites with their week, slots and status, and the first site’s day list for today', async () => {
    const { api } = renderSites();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sites and Appointments' }),
    ).toBeInTheDocument();
    const rows = await within(sitesRegion()).findAllByRole('row');
    // The header row, then one per site.
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('City Centre Donor Unit');
    expect(rows[1]).toHaveTextContent('12 Park Street, Kolkata');
    expect(rows[1]).toHaveTextContent('Mon–Fri 08:00–16:00 · Sat 09:00–13:00');
    expect(rows[1]).toHaveTextContent('Closed on 2 dates');
    expect(rows[1]).toHaveTextContent('15 min · 2 donors each');
    expect(within(rows[1]!).getByText('Active')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Deactivate City Centre Donor Unit' }),
    ).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Mon–Fri 08:00–16:00');
    expect(within(rows[2]!).getByText('Inactive')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Activate Old Town Hall' })).toBeInTheDocument();

    const day = dayRegion();
    expect(within(day).getByLabelText('Site')).toHaveValue('4');
    expect(within(day).getByLabelText('Date')).toHaveValue(today());
    expect(await within(day).findByTestId('count-booked')).toHaveTextContent('1Booked');
    expect(within(day).getByTestId('count-checked_in')).toHaveTextContent('1Checked in');
    expect(within(day).getByTestId('count-collected')).toHaveTextContent('1Collected');
    expect(within(day).getByTestId('count-deferred')).toHaveTextContent('0Deferred');
    expect(within(day).getByTestId('count-no_show')).toHaveTextContent('0No-show');
    expect(within(day).getByTestId('day-hours')).toHaveTextContent('Open 08:00–16:00');

    const bookings = within(day).getAllByRole('row').slice(1);
    expect(bookings.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      '09:00',
      '09:15',
      '10:30',
    ]);
    expect(bookings[0]).toHaveTextContent('Collected');
    expect(within(bookings[0]!).queryByRole('button')).not.toBeInTheDocument();
    // Checked in: collection only. Booked for today: check-in and collection.
    expect(
      within(bookings[1]!)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Record collection']);
    expect(
      within(bookings[2]!)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Check in', 'Record collection']);
    expect(api.requests.find((request) => request.path === '/api/admin/sites/4/day')?.query.get('date')).toBe(
      today(),
    );
  });

  it('says when a booked donor is late: the slot is over and nobody checked them in', async () => {
    renderSites({
      'GET /api/admin/sites/4/day': () =>
        jsonResponse(
          200,
          siteDay({
            appointments: siteDay().appointments.map((row) =>
              row.donation_id === 63 ? { ...row, late: true } : row,
            ),
          }),
        ),
    });
    const late = (await screen.findByRole('button', { name: 'Check in Meera Das (10:30)' })).closest('tr')!;
    expect(late).toHaveTextContent('Late: not checked in');
    expect(screen.getAllByText('Late: not checked in')).toHaveLength(1);
  });

  it('checks a donor in, then reloads the day list', async () => {
    let checkedIn = false;
    const { api, user } = renderSites({
      'POST /api/admin/donations/63/check-in': () => {
        checkedIn = true;
        return jsonResponse(200, { ...pendingDonation, id: 63, donor_name: 'Meera Das', date: today() });
      },
      'GET /api/admin/sites/4/day': () =>
        jsonResponse(
          200,
          checkedIn
            ? siteDay({
                counts: { booked: 0, checked_in: 2, collected: 1, deferred: 0, no_show: 0 },
                appointments: siteDay().appointments.map((row) =>
                  row.donation_id === 63
                    ? { ...row, state: 'checked_in' as const, checked_in_at: '2026-11-25T05:00:00.000Z' }
                    : row,
                ),
              })
            : siteDay(),
        ),
    });

    await user.click(await screen.findByRole('button', { name: 'Check in Meera Das (10:30)' }));

    expect(await screen.findByText('Meera Das is checked in for 10:30.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dayRegion()).getByTestId('count-checked_in')).toHaveTextContent('2Checked in'),
    );
    expect(within(dayRegion()).getByTestId('count-booked')).toHaveTextContent('0Booked');
    expect(
      api.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual(['/api/admin/donations/63/check-in']);
    // The Check in button is gone; focus is on the row's next step, not the top of the page.
    expect(screen.queryByRole('button', { name: 'Check in Meera Das (10:30)' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Record collection for Meera Das (10:30)' })).toHaveFocus(),
    );
  });

  it('sends one check-in when Check in is double-clicked, and shows no failure', async () => {
    let checkIns = 0;
    const { api } = renderSites({
      'POST /api/admin/donations/63/check-in': () => {
        checkIns += 1;
        return checkIns === 1
          ? jsonResponse(200, { ...pendingDonation, id: 63, donor_name: 'Meera Das', date: today() })
          : jsonResponse(409, { detail: 'This donor has already been checked in.' });
      },
    });

    await screen.findByRole('button', { name: 'Check in Meera Das (10:30)' });
    // Both clicks of a double-click arrive before React has drawn the button busy.
    const checkIn = screen.getByRole('button', { name: 'Check in Meera Das (10:30)' });
    fireEvent.click(checkIn);
    fireEvent.click(checkIn);

    expect(await screen.findByText('Meera Das is checked in for 10:30.')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        api.requests.filter((request) => request.path === '/api/admin/sites/4/day').length,
      ).toBeGreaterThan(1),
    );
    expect(screen.queryByText('Check-in failed')).not.toBeInTheDocument();
    expect(screen.queryByText('This donor has already been checked in.')).not.toBeInTheDocument();
    expect(
      api.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual(['/api/admin/donations/63/check-in']);
  });

  it('sends one collection when Record collection is double-clicked, and closes the dialog', async () => {
    let collections = 0;
    const { api, user } = renderSites({
      'POST /api/admin/donations/62/collect': () => {
        collections += 1;
        return collections === 1
          ? jsonResponse(200, { status: 'collected', unit_ids: [901, 902] })
          : jsonResponse(409, { detail: 'Only a pending donation can be collected.' });
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Record collection for Ravi Reddy (09:15)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record collection: donation #62' });
    await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.5');
    await user.type(within(dialog).getByLabelText(/Weight/), '70');
    await user.type(within(dialog).getByLabelText(/systolic/), '120');
    await user.type(within(dialog).getByLabelText(/diastolic/), '80');
    await user.type(within(dialog).getByLabelText(/Pulse/), '72');
    const record = within(dialog).getByRole('button', { name: 'Record collection' });
    fireEvent.click(record);
    fireEvent.click(record);

    expect(await screen.findByText('2 units of O+ from Ravi Reddy are in testing.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('Only a pending donation can be collected.')).not.toBeInTheDocument();
    expect(
      api.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual(['/api/admin/donations/62/collect']);
  });

  it('says why a check-in failed', async () => {
    const { user } = renderSites({
      'POST /api/admin/donations/63/check-in': () =>
        jsonResponse(409, { detail: `This booking is for ${today()} and can be checked in on that day.` }),
    });
    await user.click(await screen.findByRole('button', { name: 'Check in Meera Das (10:30)' }));
    expect(
      await screen.findByText(
        `This booking is for ${formatDate(today())} and can be checked in on that day.`,
      ),
    ).toBeInTheDocument();
  });

  it('reloads the day list when the donor was checked in meanwhile by someone else', async () => {
    let checkedIn = false;
    const { user } = renderSites({
      'POST /api/admin/donations/63/check-in': () => {
        checkedIn = true;
        return jsonResponse(409, { detail: 'This donor has already been checked in.' });
      },
      'GET /api/admin/sites/4/day': () =>
        jsonResponse(
          200,
          siteDay({
            appointments: siteDay().appointments.map((row) =>
              row.donation_id === 63 && checkedIn
                ? { ...row, state: 'checked_in' as const, checked_in_at: '2026-11-25T05:00:00.000Z' }
                : row,
            ),
          }),
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Check in Meera Das (10:30)' }));

    expect(await screen.findByText('This donor has already been checked in.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Check in Meera Das (10:30)' })).not.toBeInTheDocument(),
    );
    expect(
      screen.getByRole('button', { name: 'Record collection for Meera Das (10:30)' }),
    ).toBeInTheDocument();
  });

  it('records a collection from the day list with the Record Collection dialog', async () => {
    const { api, user } = renderSites({
      'POST /api/admin/donations/62/collect': () =>
        jsonResponse(200, { status: 'collected', unit_ids: [901, 902] }),
    });

    await user.click(await screen.findByRole('button', { name: 'Record collection for Ravi Reddy (09:15)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record collection: donation #62' });
    // What the donor declared when booking, as from Manage Donations.
    expect(dialog).toHaveTextContent('Health condition declared: Diabetes.');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('60 days before this booking');
    expect(dialog).toHaveTextContent(`Ravi Reddy booked 2 units of O+ for`);
    await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.5');
    await user.type(within(dialog).getByLabelText(/Weight/), '70');
    await user.type(within(dialog).getByLabelText(/systolic/), '120');
    await user.type(within(dialog).getByLabelText(/diastolic/), '80');
    await user.type(within(dialog).getByLabelText(/Pulse/), '72');
    await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));

    expect(await screen.findByText('2 units of O+ from Ravi Reddy are in testing.')).toBeInTheDocument();
    expect(
      api.requests.find((request) => request.path === '/api/admin/donations/62/collect')?.json(),
    ).toEqual({
      haemoglobin_g_dl: 13.5,
      weight_kg: 70,
      bp_systolic: 120,
      bp_diastolic: 80,
      pulse: 72,
    });
    // The day list is asked again after the collection.
    await waitFor(() =>
      expect(
        api.requests.filter((request) => request.path === '/api/admin/sites/4/day').length,
      ).toBeGreaterThan(1),
    );
  });

  it('offers nothing to do on a later day, and says when the site is closed or has no bookings', async () => {
    const later = addDays(today(), 3);
    const { user } = renderSites({
      'GET /api/admin/sites/4/day': (request: MockRequest) => {
        const date = request.query.get('date');
        if (date === later)
          return jsonResponse(200, siteDay({ date: later, appointments: siteDay().appointments.slice(2) }));
        if (date === '2026-12-25') {
          return jsonResponse(
            200,
            siteDay({
              date: '2026-12-25',
              open: false,
              hours: null,
              counts: { booked: 0, checked_in: 0, collected: 0, deferred: 0, no_show: 0 },
              appointments: [],
            }),
          );
        }
        return jsonResponse(
          200,
          siteDay({
            counts: { booked: 0, checked_in: 0, collected: 0, deferred: 0, no_show: 0 },
            appointments: [],
          }),
        );
      },
    });

    const day = await screen.findByRole('region', { name: 'Day list' });
    expect(await within(day).findByText('No bookings at this site on this day')).toBeInTheDocument();

    const dateInput = within(dayRegion()).getByLabelText('Date');
    await user.clear(dateInput);
    await user.type(dateInput, later);
    const row = await within(dayRegion()).findByRole('row', { name: /Meera Das/ });
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(row).toHaveTextContent('Check-in and collection from');

    await user.clear(dateInput);
    await user.type(dateInput, '2026-12-25');
    expect(await within(dayRegion()).findByText('Closed on this day')).toBeInTheDocument();
    expect(within(dayRegion()).getByTestId('day-hours')).toHaveTextContent('Closed');
  });

  it('deactivates a site after a confirmation', async () => {
    const { api, user } = renderSites({
      'PATCH /api/admin/sites/4': () =>
        jsonResponse(200, { ...cityCentre, active: false, cancelled_bookings: 0 }),
    });

    await user.click(await screen.findByRole('button', { name: 'Deactivate City Centre Donor Unit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate City Centre Donor Unit?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));

    expect(
      await screen.findByText('Donors can no longer book at City Centre Donor Unit. Its bookings stay.'),
    ).toBeInTheDocument();
    expect(api.requests.find((request) => request.method === 'PATCH')?.json()).toEqual({ active: false });
  });

  it('activates a site and leaves the keyboard on its Deactivate button', async () => {
    let activated = false;
    const answer = deferred<void>();
    const { user } = renderSites({
      'GET /api/admin/sites': () => jsonResponse(200, [cityCentre, { ...oldHall, active: activated }]),
      [`PATCH /api/admin/sites/${oldHall.id}`]: async () => {
        await answer.promise;
        activated = true;
        return jsonResponse(200, { ...oldHall, active: true, cancelled_bookings: 0 });
      },
    });

    const activate = await screen.findByRole('button', { name: 'Activate Old Town Hall' });
    await user.click(activate);
    // Busy, not disabled: a disabled button would drop the keyboard to the page.
    expect(activate).toHaveAttribute('aria-disabled', 'true');
    expect(activate).toBeEnabled();
    answer.resolve();

    expect(await screen.findByText('Donors can book at Old Town Hall again.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Deactivate Old Town Hall' })).toHaveFocus(),
    );
  });

  it('invites staff to add the first site when there is none', async () => {
    const { user } = renderSites({ 'GET /api/admin/sites': () => jsonResponse(200, []) });

    expect(await screen.findByText('No donation sites yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Day list' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add the first site' }));
    expect(await screen.findByRole('form', { name: 'Add site' })).toBeInTheDocument();
  });

  it('says when the sites could not be loaded, and retries', async () => {
    let calls = 0;
    const { user } = renderSites({
      'GET /api/admin/sites': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(503, { detail: 'The service is temporarily unavailable.' })
          : jsonResponse(200, [cityCentre]);
      },
    });

    expect(await screen.findByText('The service is temporarily unavailable.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(sitesRegion()).findByText('City Centre Donor Unit')).toBeInTheDocument();
  });
});
