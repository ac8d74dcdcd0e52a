import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Site } from '@bloodbank/shared/sites';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { formatDate } from '@/lib/format';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { SiteFormDrawer } from './site-form-drawer';

type User = ReturnType<typeof renderScreen>['user'];

/** Closed dates to come, in order (a date that has passed is refused by the field). */
const CLOSED = [26, 27, 33, 34].map((days) => addDays(todayIn(), days)) as [string, string, string, string];

const CITY_CENTRE: Site = {
  id: 4,
  name: 'City Centre Donor Unit',
  address: '12 Park Street, Kolkata',
  hours: {
    monday: { open: '08:00', close: '16:00' },
    tuesday: { open: '08:00', close: '16:00' },
    wednesday: null,
    thursday: { open: '10:00', close: '18:00' },
    friday: { open: '08:00', close: '16:00' },
    saturday: { open: '09:00', close: '13:00' },
    sunday: null,
  },
  slot_minutes: 20,
  capacity: 3,
  closed_dates: [CLOSED[1]],
  active: true,
};

function renderForm(site: Site | 'new' = 'new', handlers: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi(handlers);
  const onClose = vi.fn();
  const view = renderScreen(<SiteFormDrawer site={site} onClose={onClose} />);
  return { api, onClose, ...view };
}

const form = (name = 'Add site') => screen.getByRole('form', { name });
const posts = (api: ReturnType<typeof mockApi>) => api.requests.filter((request) => request.method !== 'GET');
const dayRow = (day: string) => screen.getByTestId(`hours-${day}`);

async function typeInto(user: User, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.type(input, text);
}

describe('SiteFormDrawer', () => {
  it('asks before Escape throws away unsaved changes; closes at once without any', async () => {
    const { user, onClose } = renderForm(CITY_CENTRE);
    await screen.findByRole('form', { name: 'Edit site' });
    // Nothing changed: Escape closes.
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    onClose.mockClear();

    await typeInto(user, screen.getByLabelText(/^Site name/), 'City Centre (new wing)');
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(ask).toHaveTextContent('The changes to City Centre Donor Unit are not saved yet.');
    expect(onClose).not.toHaveBeenCalled();
    // Keep editing: the typed name is still there.
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).not.toBeInTheDocument(),
    );
    expect(screen.getByLabelText(/^Site name/)).toHaveValue('City Centre (new wing)');
    expect(onClose).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    await user.click(await screen.findByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('starts a new site open on weekdays 08:00-16:00, 15-minute slots for 2 donors, active', async () => {
    renderForm();
    await screen.findByRole('form', { name: 'Add site' });

    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      expect(screen.getByRole('switch', { name: day })).toBeChecked();
      expect(screen.getByLabelText(`${day} Opens`)).toHaveValue('08:00');
      expect(screen.getByLabelText(`${day} Closes`)).toHaveValue('16:00');
    }
    for (const day of ['Saturday', 'Sunday']) {
      expect(screen.getByRole('switch', { name: day })).not.toBeChecked();
      expect(within(dayRow(day.toLowerCase())).getByText('Closed')).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/slot length/i)).toHaveValue(15);
    expect(screen.getByLabelText(/donors per slot/i)).toHaveValue(2);
    expect(screen.getByRole('switch', { name: /^Active/ })).toBeChecked();
    expect(screen.getByText('No closed dates.')).toBeInTheDocument();
  });

  it('shows the schema messages and sends nothing: required name and address, hours, slot length, capacity', async () => {
    const { api, user } = renderForm();
    await screen.findByRole('form', { name: 'Add site' });

    await typeInto(user, screen.getByLabelText('Monday Closes'), '07:30');
    await typeInto(user, screen.getByLabelText(/slot length/i), '3');
    await typeInto(user, screen.getByLabelText(/donors per slot/i), '0');
    await user.click(within(form()).getByRole('button', { name: 'Add site' }));

    expect(await screen.findByText('Site name is required')).toBeInTheDocument();
    expect(screen.getByText('Address is required')).toBeInTheDocument();
    expect(within(dayRow('monday')).getByText('Closing time must be after opening time')).toBeInTheDocument();
    expect(screen.getByText('Slots last at least 5 minutes')).toBeInTheDocument();
    expect(screen.getByText('At least 1 donor per slot')).toBeInTheDocument();
    expect(posts(api)).toHaveLength(0);
  });

  it('refuses a day open for less than one slot, on that day', async () => {
    const { api, user } = renderForm();
    await screen.findByRole('form', { name: 'Add site' });
    await user.type(screen.getByLabelText(/site name/i), 'Kiosk');
    await user.type(screen.getByLabelText(/address/i), 'Ward 4, City Hospital');
    await typeInto(user, screen.getByLabelText('Tuesday Closes'), '08:10');
    await user.click(within(form()).getByRole('button', { name: 'Add site' }));

    expect(
      await within(dayRow('tuesday')).findByText('Open for at least one slot (15 minutes)'),
    ).toBeInTheDocument();
    expect(posts(api)).toHaveLength(0);
  });

  it('asks for at least one open day when every day is switched off', async () => {
    const { api, user } = renderForm();
    await screen.findByRole('form', { name: 'Add site' });

    await user.type(screen.getByLabelText(/site name/i), 'Mobile Unit');
    await user.type(screen.getByLabelText(/address/i), 'Ward 4, City Hospital');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await user.click(screen.getByRole('switch', { name: day }));
    }
    await user.click(within(form()).getByRole('button', { name: 'Add site' }));

    expect(await screen.findByText('Open the site on at least one day of the week')).toBeInTheDocument();
    expect(posts(api)).toHaveLength(0);
  });

  it('creates a site: days switched off and on (a day keeps its times), closed dates sorted, numbers as numbers', async () => {
    const created: Site = { ...CITY_CENTRE, id: 9, name: 'Mobile Unit' };
    const { api, user, onClose } = renderForm('new', {
      'POST /api/admin/sites': () => jsonResponse(201, created),
    });
    await screen.findByRole('form', { name: 'Add site' });

    await user.type(screen.getByLabelText(/site name/i), '  Mobile Unit ');
    await user.type(screen.getByLabelText(/address/i), 'Ward 4, City Hospital');
    await user.click(screen.getByRole('switch', { name: 'Wednesday' }));
    await user.click(screen.getByRole('switch', { name: 'Saturday' }));
    await typeInto(user, screen.getByLabelText('Saturday Opens'), '09:00');
    await typeInto(user, screen.getByLabelText('Saturday Closes'), '13:00');
    await typeInto(user, screen.getByLabelText('Friday Closes'), '15:00');
    await user.click(screen.getByRole('switch', { name: 'Friday' }));
    expect(within(dayRow('friday')).getByText('Closed')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Friday' }));
    expect(screen.getByLabelText('Friday Closes')).toHaveValue('15:00');
    await typeInto(user, screen.getByLabelText(/slot length/i), '10');
    await typeInto(user, screen.getByLabelText(/donors per slot/i), '4');
    const closedDate = screen.getByLabelText('Closed date');
    // Nothing chosen yet: asked for the date, in no particular format (the picker shows the browser's).
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    expect(screen.getByText('Please choose the date to add')).toBeInTheDocument();
    // The keyboard goes to the field, where the message is read with it.
    expect(closedDate).toHaveFocus();
    // A day gone by is refused on the field, and not added.
    await user.type(closedDate, addDays(todayIn(), -1));
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    expect(screen.getByText('This day has passed: choose today or a day to come')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Closed dates' })).not.toBeInTheDocument();
    await user.clear(closedDate);
    await user.type(closedDate, CLOSED[2]);
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    await user.type(closedDate, CLOSED[1]);
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    expect(within(screen.getByRole('list', { name: 'Closed dates' })).getAllByRole('listitem')).toHaveLength(
      2,
    );
    // A date taken back out again.
    await user.type(closedDate, CLOSED[3]);
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    expect(screen.getByText(`${formatDate(CLOSED[3])} added to the closed dates.`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Remove ${formatDate(CLOSED[3])}` }));
    // Its button went with it: the keyboard goes on to the date before it, and the change is said.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: `Remove ${formatDate(CLOSED[2])}` })).toHaveFocus(),
    );
    expect(screen.getByText(`${formatDate(CLOSED[3])} removed from the closed dates.`)).toBeInTheDocument();

    await user.click(within(form()).getByRole('button', { name: 'Add site' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts(api).map((request) => request.json())).toEqual([
      {
        name: 'Mobile Unit',
        address: 'Ward 4, City Hospital',
        hours: {
          monday: { open: '08:00', close: '16:00' },
          tuesday: { open: '08:00', close: '16:00' },
          wednesday: null,
          thursday: { open: '08:00', close: '16:00' },
          friday: { open: '08:00', close: '15:00' },
          saturday: { open: '09:00', close: '13:00' },
          sunday: null,
        },
        slot_minutes: 10,
        capacity: 4,
        closed_dates: [CLOSED[1], CLOSED[2]],
        active: true,
      },
    ]);
    expect(await screen.findByText('Donors can now book at Mobile Unit.')).toBeInTheDocument();
  });

  it('says before saving that a closed time cancels its bookings, and after saving how many it cancelled', async () => {
    const { api, user, onClose } = renderForm(CITY_CENTRE, {
      // Asked first: none booked at the times it closes (the server's count after saving may differ).
      'POST /api/admin/sites/4/affected-bookings': () => jsonResponse(200, { bookings: [] }),
      'PATCH /api/admin/sites/4': () =>
        jsonResponse(200, {
          ...CITY_CENTRE,
          closed_dates: [CLOSED[0], CLOSED[1]],
          cancelled_bookings: 2,
        }),
    });
    await screen.findByRole('form', { name: 'Edit site' });
    expect(
      screen.getByText(
        'Bookings on a closed date, or at hours the site no longer keeps, are cancelled when you save, and their donors are told.',
      ),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('Closed date'), CLOSED[0]);
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts(api).map((request) => [request.method, request.json()])).toMatchObject([
      ['POST', { closed_dates: [CLOSED[0], CLOSED[1]], hours: CITY_CENTRE.hours }],
      ['PATCH', { closed_dates: [CLOSED[0], CLOSED[1]] }],
    ]);
    expect(
      await screen.findByText(
        'City Centre Donor Unit was updated. 2 bookings at times it is now closed were cancelled, and their donors told.',
      ),
    ).toBeInTheDocument();
  });

  it('names the bookings a new closed date would cancel and saves only once staff confirm', async () => {
    const affected = [
      { id: 71, date: CLOSED[0], slot: '10:45', donor_name: 'Sanjay Kulkarni' },
      { id: 72, date: CLOSED[0], slot: '14:45', donor_name: 'Sanjay Menon' },
    ];
    const { api, user, onClose } = renderForm(CITY_CENTRE, {
      'POST /api/admin/sites/4/affected-bookings': () => jsonResponse(200, { bookings: affected }),
      'PATCH /api/admin/sites/4': () =>
        jsonResponse(200, { ...CITY_CENTRE, closed_dates: [CLOSED[0], CLOSED[1]], cancelled_bookings: 2 }),
    });
    await screen.findByRole('form', { name: 'Edit site' });
    await user.type(screen.getByLabelText('Closed date'), CLOSED[0]);
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const ask = await screen.findByRole('dialog', { name: 'Cancel 2 bookings?' });
    expect(ask).toHaveTextContent(
      'With these hours and closed dates City Centre Donor Unit is closed at times donors have booked. Saving cancels these bookings, and each donor is told by e-mail and in the app:',
    );
    expect(
      within(within(ask).getByRole('list', { name: 'Bookings that saving cancels' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `${formatDate(CLOSED[0])}, 10:45 · Sanjay Kulkarni`,
      `${formatDate(CLOSED[0])}, 14:45 · Sanjay Menon`,
    ]);
    // Escape closes this question alone: not the form, and no "Discard your changes?" either.
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Cancel 2 bookings?' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit site' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const askAgain = await screen.findByRole('dialog', { name: 'Cancel 2 bookings?' });
    // Nothing is saved yet; going back keeps the form as typed.
    expect(api.requests.some((request) => request.method === 'PATCH')).toBe(false);
    await user.click(within(askAgain).getByRole('button', { name: 'Go back' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Cancel 2 bookings?' })).not.toBeInTheDocument(),
    );
    expect(api.requests.some((request) => request.method === 'PATCH')).toBe(false);
    expect(onClose).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel 2 bookings?' })).getByRole('button', {
        name: 'Save and cancel 2 bookings',
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1);
    expect(
      await screen.findByText(
        'City Centre Donor Unit was updated. 2 bookings at times it is now closed were cancelled, and their donors told.',
      ),
    ).toBeInTheDocument();
  });

  it('a change that leaves the hours and closed dates as they were is saved without asking', async () => {
    const { api, user, onClose } = renderForm(CITY_CENTRE, {
      'PATCH /api/admin/sites/4': () =>
        jsonResponse(200, { ...CITY_CENTRE, name: 'City Centre', cancelled_bookings: 0 }),
    });
    await screen.findByRole('form', { name: 'Edit site' });
    await typeInto(user, screen.getByLabelText(/^Site name/), 'City Centre');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts(api).map((request) => request.method)).toEqual(['PATCH']);
  });

  it('a new site has no bookings: its form does not speak of cancelling any', async () => {
    renderForm();
    await screen.findByRole('form', { name: 'Add site' });
    expect(screen.queryByText(/are cancelled when you save/)).not.toBeInTheDocument();
  });

  it("puts the server's nested field messages on their fields", async () => {
    const { user, onClose } = renderForm(CITY_CENTRE, {
      'PATCH /api/admin/sites/4': () =>
        jsonResponse(422, {
          detail: 'Closing time must be after opening time',
          errors: {
            'hours.thursday.close': 'Closing time must be after opening time',
            'closed_dates.0': 'Please enter a date between 1900-01-01 and 2100-12-31',
            name: 'A site with this name already exists',
          },
        }),
    });
    await screen.findByRole('form', { name: 'Edit site' });
    expect(screen.getByLabelText(/site name/i)).toHaveValue('City Centre Donor Unit');
    expect(screen.getByLabelText('Thursday Opens')).toHaveValue('10:00');
    expect(screen.getByRole('switch', { name: 'Wednesday' })).not.toBeChecked();
    expect(screen.getByText(formatDate(CLOSED[1]))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(
      await within(dayRow('thursday')).findByText('Closing time must be after opening time'),
    ).toBeInTheDocument();
    expect(screen.getByText('Please enter a date between 1900-01-01 and 2100-12-31')).toBeInTheDocument();
    expect(screen.getByText('A site with this name already exists')).toBeInTheDocument();
    expect(screen.getByLabelText(/site name/i)).toHaveFocus();
    // Every message found its field: nothing more is said above the form.
    expect(within(form('Edit site')).queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
