import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AdminDonation } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import { jsonResponse, mockApi, sampleUser, type MockRequest } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged, pendingDonation } from '../testing/fixtures';
import { DonationsScreen } from './donations-screen';
import { formatDate } from '@/lib/format';

/**
 * The clock at a fixed noon for this file: its fixtures are made when it loads, and a run that
 * crossed midnight had fixtures of one day and a screen of the next. Only Date is faked; it goes on
 * from there, and timers stay real.
 */
vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-06-10T12:00:00Z'), shouldAdvanceTime: true });
afterAll(() => vi.useRealTimers());

const today = todayIn();

/** Booked for today, with a declared health condition. */
const dueDonation: AdminDonation = { ...pendingDonation, date: today };
const healthy: AdminDonation = {
  ...pendingDonation,
  id: 52,
  date: today,
  disease: 'None',
  donor_name: 'Ravi Reddy',
  donor_username: 'ravi.r',
};
const later: AdminDonation = {
  ...pendingDonation,
  id: 54,
  date: addDays(today, 6),
  disease: 'None',
  donor_name: 'Meera Das',
  donor_username: 'meera.d',
};
const collected: AdminDonation = {
  ...pendingDonation,
  id: 55,
  bloodgroup: 'A+',
  unit: 2,
  date: addDays(today, -1),
  status: 'collected',
  disease: 'None',
  donor_name: 'Kabir Shah',
  donor_username: 'kabir.s',
  donor_bloodgroup: 'A+',
  collected_on: addDays(today, -1),
  decided_at: '2026-11-24T09:00:00.000Z',
  unit_ids: [301, 302],
  screening: {
    haemoglobin_g_dl: 13.4,
    weight_kg: 72,
    bp_systolic: 120,
    bp_diastolic: 80,
    pulse: 70,
    passed: true,
    recorded_by: 'admin',
    recorded_at: '2026-11-24T09:00:00.000Z',
  },
};

interface Lists {
  due?: AdminDonation[];
  upcoming?: AdminDonation[];
  awaiting?: AdminDonation[];
  history?: AdminDonation[];
}

/** GET /api/admin/donations answers each section by its query. */
function donationsHandler(lists: Lists) {
  return (request: MockRequest) => {
    const status = request.query.get('status');
    const due = request.query.get('due');
    if (status === 'pending' && due === 'true') return jsonResponse(200, paged(lists.due ?? []));
    if (status === 'pending' && due === 'false') return jsonResponse(200, paged(lists.upcoming ?? []));
    if (status === 'collected') return jsonResponse(200, paged(lists.awaiting ?? []));
    return jsonResponse(200, paged(lists.history ?? []));
  };
}

function renderDonations(lists: Lists, handlers: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    'GET /api/admin/dashboard': dashboardHandler,
    'GET /api/admin/donations': donationsHandler(lists),
    'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
    ...handlers,
  });
  return { api, ...renderScreen(<DonationsScreen />) };
}

/**
 * Manage Donations while another staff member acts first: the lists read `before` until `action`
 * (a POST) is refused with 409 `detail`, and `after` from then on.
 */
function renderActedMeanwhile(before: Lists, after: Lists, action: string, detail: string) {
  let acted = false;
  return renderDonations(before, {
    'GET /api/admin/donations': (request) => donationsHandler(acted ? after : before)(request),
    [action]: () => {
      acted = true;
      return jsonResponse(409, { detail, code: 'already_decided' });
    },
  });
}

const section = (name: string) => screen.getByRole('region', { name });

describe('Manage Donations', () => {
  it("shows one donor's donations when the address names them, and the way back to everyone's", async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donations': donationsHandler({ history: [collected] }),
      'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
    });
    const { user, router } = renderScreen(<DonationsScreen />, {
      path: '/admin-donation',
      initialPath: '/admin-donation?donor=7#history',
    });
    const history = section('History');
    await waitFor(() => expect(history).toHaveTextContent('Only the donations of Kabir Shah.'));
    expect(within(history).getByRole('row', { name: /Kabir Shah/ })).toBeInTheDocument();
    const asked = api.requests.filter((request) => request.path === '/api/admin/donations');
    expect(asked.some((request) => request.query.get('donor_id') === '7' && !request.query.get('due'))).toBe(
      true,
    );
    // The queues above stay everyone's.
    expect(
      asked.filter((request) => request.query.get('due')).every((request) => !request.query.has('donor_id')),
    ).toBe(true);

    await user.click(within(history).getByRole('button', { name: "Show every donor's" }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(history).not.toHaveTextContent('Only the donations of');
  });

  it('opens with links to its four parts and what each holds; a link brings the part into view and reads its name', async () => {
    const scrolled = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    const { user } = renderDonations({
      due: [dueDonation, healthy],
      upcoming: [later],
      awaiting: [collected],
    });
    const parts = await screen.findByRole('navigation', { name: 'On this page' });
    await waitFor(() =>
      expect(
        within(parts)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(['Bookings due today2', 'Upcoming bookings1', 'Awaiting test results1', 'History']),
    );

    await user.click(within(parts).getByRole('link', { name: /Awaiting test results/ }));
    const results = section('Awaiting test results');
    expect(scrolled.mock.contexts.at(-1)).toBe(results);
    expect(within(results).getByRole('heading', { name: 'Awaiting test results' })).toHaveFocus();
    scrolled.mockRestore();
  });

  it('lists the bookings due today, the upcoming ones, those awaiting results, then the history', async () => {
    renderDonations({
      due: [dueDonation, healthy],
      upcoming: [later],
      awaiting: [collected],
      history: [
        { ...pendingDonation, id: 40, status: 'discarded', outcome_reason: 'Reactive screening test' },
      ],
    });

    const headings = (await screen.findAllByRole('heading', { level: 2 })).map(
      (heading) => heading.textContent,
    );
    expect(headings).toEqual(['Bookings due today', 'Upcoming bookings', 'Awaiting test results', 'History']);

    const due = section('Bookings due today');
    const [, flagged, plain] = await within(due).findAllByRole('row');
    expect(flagged).toHaveTextContent('Diabetes');
    expect(flagged?.className).toMatch(/highlight/);
    expect(plain).toHaveTextContent('None');
    const record = within(due).getByRole('button', {
      name: 'Record collection of donation #53 from Asha Kulkarni',
    });
    expect(record).toBeEnabled();
    // Sentence case, as on the Sites day list and every other admin button.
    expect(record).toHaveTextContent(/^Record collection$/);
    expect(within(due).getByRole('button', { name: 'Reject donation #53 from Asha Kulkarni' })).toBeEnabled();

    const upcoming = section('Upcoming bookings');
    expect(await within(upcoming).findByText(/Can be collected from/)).toBeInTheDocument();
    expect(within(upcoming).queryByRole('button', { name: /Record collection/ })).not.toBeInTheDocument();
    expect(
      within(upcoming).getByRole('button', { name: 'Reject donation #54 from Meera Das' }),
    ).toBeInTheDocument();

    const awaiting = section('Awaiting test results');
    expect(await within(awaiting).findByText(/Hb 13.4 g\/dL/)).toBeInTheDocument();
    expect(
      within(awaiting).getByRole('button', { name: 'Record test results of donation #55 from Kabir Shah' }),
    ).toHaveTextContent(/^Record test results$/);

    const history = section('History');
    expect(await within(within(history).getByRole('table')).findByText('Discarded')).toBeInTheDocument();
    expect(within(history).getByText('Reason: Reactive screening test')).toBeInTheDocument();
  });

  it("tells a booking the donor cancelled from one staff's action cancelled, with its reason", async () => {
    renderDonations({
      history: [
        {
          ...pendingDonation,
          id: 41,
          status: 'cancelled',
          outcome_reason: 'The site is closed at that time.',
        },
        { ...pendingDonation, id: 42, status: 'cancelled', outcome_reason: null },
      ],
    });
    const table = await within(section('History')).findByRole('table');
    expect(await within(table).findByText('Cancelled by staff')).toBeInTheDocument();
    expect(within(table).getByText('Reason: The site is closed at that time.')).toBeInTheDocument();
    expect(within(table).getByText('Cancelled by donor')).toBeInTheDocument();
    // The filter's one status holds both kinds, and says so.
    expect(
      within(section('History')).getByRole('option', { name: 'Cancelled (by donor or staff)' }),
    ).toBeInTheDocument();
  });

  it('says so when a section is empty', async () => {
    renderDonations({});
    expect(await screen.findByRole('heading', { name: 'No bookings due today' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No upcoming bookings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No donations awaiting results' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No donations yet' })).toBeInTheDocument();
  });

  describe('Record Collection', () => {
    async function openCollection(user: ReturnType<typeof renderDonations>['user']) {
      await user.click(await screen.findByRole('button', { name: /Record collection of donation #52/ }));
      return screen.findByRole('dialog', { name: 'Record collection: donation #52' });
    }

    it('shows the time and site of a booking at a site beside its date', async () => {
      const atSite: AdminDonation = {
        ...healthy,
        appointment: {
          site_id: 3,
          site_name: 'Central Blood Centre',
          address: '1 Main Road',
          time: '11:30',
          ends: '11:45',
        },
      };
      renderDonations({
        due: [atSite],
        upcoming: [{ ...later, appointment: { ...atSite.appointment!, time: '09:15' } }],
      });
      expect(await screen.findByText('11:30, Central Blood Centre')).toBeInTheDocument();
      expect(await screen.findByText('09:15, Central Blood Centre')).toBeInTheDocument();
    });

    it('shows the last donation the donor declared, and warns when it is inside the 90-day interval', async () => {
      const recent = { ...healthy, lastDonation: addDays(today, -57) };
      const { user } = renderDonations({ due: [recent] });
      const dialog = await openCollection(user);
      const warning = within(dialog).getByRole('alert');
      expect(warning).toHaveTextContent('Check the last donation');
      expect(warning).toHaveTextContent(
        '57 days before this booking: less than the 90 days between donations. Ask before you collect.',
      );
    });

    it('shows a declared last donation outside the interval without a warning', async () => {
      const { user } = renderDonations({ due: [{ ...healthy, lastDonation: addDays(today, -120) }] });
      const dialog = await openCollection(user);
      expect(within(dialog).getByText(/Last donation declared:/)).toHaveTextContent(
        '(120 days before this booking)',
      );
      expect(within(dialog).queryByText('Check the last donation')).not.toBeInTheDocument();
    });

    it('shows the thresholds, checks every field with the shared rules and sends nothing invalid', async () => {
      const { api, user } = renderDonations({ due: [healthy] });
      const dialog = await openCollection(user);

      expect(await within(dialog).findByText('To donate: at least 12.5 g/dL')).toBeInTheDocument();
      expect(within(dialog).getByText('To donate: at least 50 kg')).toBeInTheDocument();
      expect(within(dialog).getByText('To donate: 90–180 mmHg')).toBeInTheDocument();
      expect(within(dialog).getByText('To donate: 50–100 mmHg')).toBeInTheDocument();
      expect(within(dialog).getByText('To donate: 50–100 beats/min')).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));
      expect(await within(dialog).findByText('Haemoglobin is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Weight is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Pulse is required')).toBeInTheDocument();

      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '40');
      await user.type(within(dialog).getByLabelText(/Weight/), '70.25');
      await user.type(within(dialog).getByLabelText(/systolic/), '80');
      await user.type(within(dialog).getByLabelText(/diastolic/), '90');
      await user.type(within(dialog).getByLabelText(/Pulse/), 'abc');
      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));

      expect(
        await within(dialog).findByText('Haemoglobin must be between 3 and 25 g/dL'),
      ).toBeInTheDocument();
      expect(within(dialog).getByText('Please enter at most 1 decimal place')).toBeInTheDocument();
      expect(within(dialog).getByText('Please enter a number')).toBeInTheDocument();
      expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
    });

    it('previews a failed screening, then records it and says the donor is deferred', async () => {
      const bodies: unknown[] = [];
      const until = addDays(today, 30);
      const { user } = renderDonations(
        { due: [healthy] },
        {
          'POST /api/admin/donations/52/collect': (request) => {
            bodies.push(request.json());
            return jsonResponse(200, {
              status: 'deferred',
              reasons: ['Haemoglobin 11.8 g/dL is below 12.5 g/dL.'],
              deferral: {
                id: 9,
                donor_id: 11,
                type: 'temporary',
                until,
                reason: 'Haemoglobin 11.8 g/dL is below 12.5 g/dL.',
                source: 'screening',
                donation_id: 52,
                created_by: 'admin',
                created_at: '2026-11-25T09:00:00.000Z',
                active: true,
                lifted_at: null,
                lifted_by: null,
                lift_reason: null,
              },
            });
          },
        },
      );
      const dialog = await openCollection(user);
      await within(dialog).findByText('To donate: at least 12.5 g/dL');

      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.1');
      await user.type(within(dialog).getByLabelText(/Weight/), '68');
      await user.type(within(dialog).getByLabelText(/systolic/), '120');
      await user.type(within(dialog).getByLabelText(/diastolic/), '80');
      await user.type(within(dialog).getByLabelText(/Pulse/), '72');
      expect(await within(dialog).findByTestId('screening-preview')).toHaveTextContent(
        'Every measurement meets its threshold.',
      );

      const haemoglobin = within(dialog).getByLabelText(/Haemoglobin/);
      await user.clear(haemoglobin);
      await user.type(haemoglobin, '11.8');
      const preview = await within(dialog).findByTestId('screening-preview');
      expect(preview).toHaveTextContent('This donor will be deferred for 30 days:');
      expect(preview).toHaveTextContent('Haemoglobin 11.8 g/dL is below 12.5 g/dL.');

      await user.click(within(dialog).getByRole('button', { name: 'Record and defer' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(bodies).toEqual([
        { haemoglobin_g_dl: 11.8, weight_kg: 68, bp_systolic: 120, bp_diastolic: 80, pulse: 72 },
      ]);
      expect(await screen.findByText(/Ravi Reddy is deferred until/)).toBeInTheDocument();
    });

    it("puts the server's field errors on their fields and shows a conflict in the dialog", async () => {
      let calls = 0;
      const { user } = renderDonations(
        { due: [healthy] },
        {
          'POST /api/admin/donations/52/collect': () => {
            calls += 1;
            return calls === 1
              ? jsonResponse(422, {
                  detail: 'Validation failed',
                  errors: { weight_kg: 'Weight looks wrong' },
                })
              : jsonResponse(409, {
                  detail: `This donation is booked for ${today} and can be collected from that day.`,
                  code: 'not_yet_due',
                });
          },
        },
      );
      const dialog = await openCollection(user);
      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.1');
      await user.type(within(dialog).getByLabelText(/Weight/), '68');
      await user.type(within(dialog).getByLabelText(/systolic/), '120');
      await user.type(within(dialog).getByLabelText(/diastolic/), '80');
      await user.type(within(dialog).getByLabelText(/Pulse/), '72');
      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));

      expect(await within(dialog).findByText('Weight looks wrong')).toBeInTheDocument();
      expect(within(dialog).getByLabelText(/Weight/)).toHaveAttribute('aria-invalid', 'true');
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        `This donation is booked for ${formatDate(today)} and can be collected from that day.`,
      );
    });
    it('keeps the measurements typed when the dialog goes before they are recorded (a session that ended), and forgets them once recorded', async () => {
      localStorage.setItem('token', 'token-admin-1');
      localStorage.setItem('userType', 'admin');
      localStorage.setItem('userId', '1');
      const { api, user } = renderDonations(
        { due: [healthy] },
        {
          'GET /api/users/me': () =>
            jsonResponse(200, { ...sampleUser, userId: 1, userType: 'admin', username: 'admin' }),
          'POST /api/admin/donations/52/collect': () =>
            jsonResponse(200, { id: 52, status: 'collected', unit_ids: [901], reasons: [], deferral: null }),
        },
      );
      let dialog = await openCollection(user);
      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.4');
      await user.type(within(dialog).getByLabelText(/Weight/), '61');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      dialog = await openCollection(user);
      expect(within(dialog).getByText(/What you typed before is filled in again/)).toBeInTheDocument();
      expect(within(dialog).getByLabelText(/Haemoglobin/)).toHaveValue('13.4');
      expect(within(dialog).getByLabelText(/Weight/)).toHaveValue('61');
      await user.type(within(dialog).getByLabelText(/systolic/), '120');
      await user.type(within(dialog).getByLabelText(/diastolic/), '80');
      await user.type(within(dialog).getByLabelText(/Pulse/), '72');
      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(api.requests.find((request) => request.method === 'POST')?.json()).toMatchObject({
        haemoglobin_g_dl: 13.4,
        weight_kg: 61,
      });
      expect(Object.keys(sessionStorage).filter((key) => key.includes('record-collection'))).toEqual([]);
    });

    it('reloads the lists after a conflict, so a donation another staff member collected leaves Due today', async () => {
      const { user } = renderActedMeanwhile(
        { due: [healthy] },
        { awaiting: [{ ...collected, id: 52, donor_name: 'Ravi Reddy' }] },
        'POST /api/admin/donations/52/collect',
        'This donation has already been collected.',
      );
      const dialog = await openCollection(user);
      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.1');
      await user.type(within(dialog).getByLabelText(/Weight/), '68');
      await user.type(within(dialog).getByLabelText(/systolic/), '120');
      await user.type(within(dialog).getByLabelText(/diastolic/), '80');
      await user.type(within(dialog).getByLabelText(/Pulse/), '72');
      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'This donation has already been collected.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() =>
        expect(
          screen.queryByRole('button', { name: /Record collection of donation #52/ }),
        ).not.toBeInTheDocument(),
      );
      expect(
        await screen.findByRole('button', { name: /Record test results of donation #52/ }),
      ).toBeInTheDocument();
    });
  });

  describe('Record Test Results', () => {
    async function openResults(user: ReturnType<typeof renderDonations>['user']) {
      await user.click(await screen.findByRole('button', { name: /Record test results of donation #55/ }));
      return screen.findByRole('dialog', { name: 'Record test results: donation #55' });
    }

    /** Marks every infection test of the results dialog Negative. */
    async function chooseAllNegative(user: ReturnType<typeof renderDonations>['user'], dialog: HTMLElement) {
      for (const test of ['HIV', 'Hepatitis B', 'Hepatitis C', 'Syphilis']) {
        const group = within(dialog).getByRole('radiogroup', { name: new RegExp(`^${test}`) });
        await user.click(within(group).getByRole('radio', { name: 'Negative' }));
      }
    }

    it('makes staff choose every result, then releases the donation', async () => {
      const bodies: unknown[] = [];
      const { api, user } = renderDonations(
        { awaiting: [collected] },
        {
          'POST /api/admin/donations/55/results': (request) => {
            bodies.push(request.json());
            return jsonResponse(200, {
              status: 'released',
              unit_ids: [301, 302],
              corrected_bloodgroup: null,
              deferral: null,
              lookback_unit_ids: [],
            });
          },
        },
      );
      const dialog = await openResults(user);
      expect(within(dialog).getAllByRole('radio')).toHaveLength(8);
      expect(within(dialog).queryAllByRole('radio', { checked: true })).toHaveLength(0);
      expect(within(dialog).getByLabelText(/Confirmed blood group/)).toHaveValue('A+');
      // The first result to choose has the focus, not the close button; nothing is chosen by it.
      const hiv = within(dialog).getByRole('radiogroup', { name: /^HIV/ });
      await waitFor(() => expect(within(hiv).getByRole('radio', { name: 'Negative' })).toHaveFocus());

      await user.click(within(dialog).getByRole('button', { name: 'Record results' }));
      expect(await within(dialog).findByText('HIV result is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Hepatitis B (HBV) result is required')).toBeInTheDocument();
      expect(within(dialog).getByText('Syphilis result is required')).toBeInTheDocument();
      // Each radio says so itself: a screen reader landing on it reads the group's message.
      for (const radio of within(hiv).getAllByRole('radio')) {
        expect(radio).toHaveAttribute('aria-invalid', 'true');
        expect(radio).toHaveAccessibleDescription('HIV result is required');
      }
      expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

      await chooseAllNegative(user, dialog);
      expect(within(dialog).queryByTestId('reactive-warning')).not.toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Record results' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(bodies).toEqual([
        { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup: 'A+' },
      ]);
      expect(await screen.findByText('2 units of A+ now available.')).toBeInTheDocument();
    });

    it('warns of a changed group and of a reactive result, and asks again before recording it', async () => {
      const bodies: unknown[] = [];
      const { user } = renderDonations(
        { awaiting: [collected] },
        {
          'POST /api/admin/donations/55/results': (request) => {
            bodies.push(request.json());
            return jsonResponse(200, {
              status: 'discarded',
              unit_ids: [301, 302],
              corrected_bloodgroup: 'A-',
              deferral: null,
              lookback_unit_ids: [120],
            });
          },
        },
      );
      const dialog = await openResults(user);

      await user.selectOptions(within(dialog).getByLabelText(/Confirmed blood group/), 'A-');
      expect(await within(dialog).findByTestId('group-warning')).toHaveTextContent(
        "The donor's group will be corrected from A+ to A-",
      );

      const radios = (name: string) =>
        within(within(dialog).getByRole('radiogroup', { name: new RegExp(`^${name}`) }));
      await user.click(radios('HIV').getByRole('radio', { name: 'Negative' }));
      await user.click(radios('Hepatitis B').getByRole('radio', { name: 'Negative' }));
      await user.click(radios('Hepatitis C').getByRole('radio', { name: 'Negative' }));
      await user.click(radios('Syphilis').getByRole('radio', { name: 'Reactive' }));

      const warning = await within(dialog).findByTestId('reactive-warning');
      expect(warning).toHaveTextContent('Reactive: Syphilis');
      expect(warning).toHaveTextContent('The units of this donation are discarded');
      expect(warning).toHaveTextContent('The donor is deferred for 365 days (syphilis alone).');
      expect(warning).toHaveTextContent('Lookback');

      await user.click(radios('HIV').getByRole('radio', { name: 'Reactive' }));
      expect(within(dialog).getByTestId('reactive-warning')).toHaveTextContent(
        'The donor is deferred permanently.',
      );

      await user.click(within(dialog).getByRole('button', { name: 'Review reactive result' }));
      expect(bodies).toHaveLength(0);
      expect(
        await within(dialog).findByText('Record a reactive result (HIV, Syphilis)?'),
      ).toBeInTheDocument();
      expect(dialog).toHaveTextContent(
        // A reactive result: the donor hears only the follow-up text.
        "Kabir Shah's recorded group changes from A+ to A-; the donor is not told until the follow-up.",
      );
      // The button that had focus is gone with the form: the keyboard goes on at the one to press.
      expect(within(dialog).getByRole('button', { name: 'Discard and defer' })).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Discard and defer' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(bodies).toEqual([
        { hiv: 'reactive', hbv: 'negative', hcv: 'negative', syphilis: 'reactive', bloodgroup: 'A-' },
      ]);
      expect(
        await screen.findByText(
          /2 units discarded; Kabir Shah is deferred permanently. 1 unit on lookback hold./,
        ),
      ).toBeInTheDocument();
    });
    it("asks again before a confirmed group corrects the donor's record, and Back keeps the form", async () => {
      const bodies: unknown[] = [];
      const { user } = renderDonations(
        { awaiting: [collected] },
        {
          'POST /api/admin/donations/55/results': (request) => {
            bodies.push(request.json());
            return jsonResponse(200, {
              status: 'released',
              unit_ids: [301, 302],
              corrected_bloodgroup: 'B-',
              deferral: null,
              lookback_unit_ids: [],
            });
          },
        },
      );
      const dialog = await openResults(user);
      await chooseAllNegative(user, dialog);
      await user.selectOptions(within(dialog).getByLabelText(/Confirmed blood group/), 'B-');

      await user.click(within(dialog).getByRole('button', { name: 'Review group correction' }));
      expect(bodies).toHaveLength(0);
      expect(await within(dialog).findByText("Correct the donor's group from A+ to B-?")).toBeInTheDocument();
      expect(dialog).toHaveTextContent(
        "Kabir Shah's recorded group changes from A+ to B-, and the donor is told.",
      );
      // The bags by number: components separated from the whole blood carry the group too.
      expect(dialog).toHaveTextContent('Units #301, #302 of this donation carry B- from now on');

      await user.click(within(dialog).getByRole('button', { name: 'Back' }));
      expect(within(dialog).getByLabelText(/Confirmed blood group/)).toHaveValue('B-');
      // Back where the review was asked for, not on the page behind the dialog.
      expect(within(dialog).getByRole('button', { name: 'Review group correction' })).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Review group correction' }));
      await user.click(await within(dialog).findByRole('button', { name: 'Correct group and release' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(bodies).toEqual([
        { hiv: 'negative', hbv: 'negative', hcv: 'negative', syphilis: 'negative', bloodgroup: 'B-' },
      ]);
      expect(
        await screen.findByText("2 units of B- now available. The donor's group was corrected to B-."),
      ).toBeInTheDocument();
    });

    it("compares the confirmed group with the donor's record as it is now, not as it was booked", async () => {
      // Booked as A+; staff have since corrected Kabir's record to B-. The laboratory confirms A+:
      // the units keep A+ but the donor's record goes back to A+, so staff are asked first.
      const correctedSinceBooking: AdminDonation = { ...collected, donor_bloodgroup: 'B-' };
      const bodies: unknown[] = [];
      const { user } = renderDonations(
        { awaiting: [correctedSinceBooking] },
        {
          'POST /api/admin/donations/55/results': (request) => {
            bodies.push(request.json());
            return jsonResponse(200, {
              status: 'released',
              unit_ids: [301, 302],
              corrected_bloodgroup: 'A+',
              deferral: null,
              lookback_unit_ids: [],
            });
          },
        },
      );
      const dialog = await openResults(user);
      expect(dialog).toHaveTextContent("Booked as A+; the donor's record now says B-");
      await chooseAllNegative(user, dialog);
      expect(within(dialog).getByTestId('group-warning')).toHaveTextContent(
        "The donor's group will be corrected from B- to A+",
      );
      await user.click(within(dialog).getByRole('button', { name: 'Review group correction' }));
      expect(bodies).toHaveLength(0);
      expect(await within(dialog).findByText("Correct the donor's group from B- to A+?")).toBeInTheDocument();

      // Confirming B- instead matches the record: the units are relabelled, the record stays.
      await user.click(within(dialog).getByRole('button', { name: 'Back' }));
      await user.selectOptions(within(dialog).getByLabelText(/Confirmed blood group/), 'B-');
      expect(within(dialog).getByTestId('group-warning')).toHaveTextContent(
        "The donation was booked as A+, the donor's record now says B-: the units will carry B-.",
      );
      await user.click(within(dialog).getByRole('button', { name: 'Review group correction' }));
      expect(await within(dialog).findByText('Release the units as B-, not A+?')).toBeInTheDocument();
      expect(dialog).toHaveTextContent("Kabir Shah's record already says B-; the donation was booked as A+.");
      expect(bodies).toHaveLength(0);
    });

    it('reloads the lists after a conflict, so a donation another staff member decided leaves Awaiting test results', async () => {
      // Once another staff member has recorded the results, the donation is no longer awaiting them.
      const { api, user } = renderActedMeanwhile(
        { awaiting: [collected] },
        { history: [{ ...collected, status: 'released' }] },
        'POST /api/admin/donations/55/results',
        'Test results have already been recorded for this donation.',
      );
      const dialog = await openResults(user);
      await chooseAllNegative(user, dialog);
      await user.click(within(dialog).getByRole('button', { name: 'Record results' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'Test results have already been recorded for this donation.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() =>
        expect(
          screen.queryByRole('button', { name: /Record test results of donation #55/ }),
        ).not.toBeInTheDocument(),
      );
      expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    });
  });

  it('rejects with a reason, and sends no reason when none is given', async () => {
    const bodies: unknown[] = [];
    const { user } = renderDonations(
      { due: [dueDonation], upcoming: [later] },
      {
        'POST /api/admin/donations/53/reject': (request) => {
          bodies.push(request.json());
          return jsonResponse(200, {
            ...dueDonation,
            status: 'rejected',
            rejection_reason: 'Blood sugar too high today',
          });
        },
        'POST /api/admin/donations/54/reject': (request) => {
          bodies.push(request.json());
          return jsonResponse(200, { ...later, status: 'rejected' });
        },
      },
    );

    await user.click(await screen.findByRole('button', { name: 'Reject donation #53 from Asha Kulkarni' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    expect(dialog).toHaveTextContent('health condition: Diabetes');
    expect(within(dialog).getByText('Shown to the donor. At most 500 characters.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Blood sugar too high today');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Asha Kulkarni will see the decision.')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Reject donation #54 from Meera Das' }));
    dialog = await screen.findByRole('dialog', { name: 'Reject donation #54' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(bodies).toEqual([{ reason: 'Blood sugar too high today' }, {}]);
  });

  it('refuses a reason over 500 characters before sending it', async () => {
    const { api, user } = renderDonations({ due: [dueDonation] });

    await user.click(await screen.findByRole('button', { name: /Reject donation #53/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    const reason = within(dialog).getByLabelText('Reason (optional)');
    await user.click(reason);
    await user.paste('x'.repeat(501));
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    expect(await within(dialog).findByText('Must be at most 500 characters')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('keeps the reject dialog open and says why when the donation was already decided', async () => {
    const { user } = renderDonations(
      { due: [dueDonation] },
      {
        'POST /api/admin/donations/53/reject': () =>
          jsonResponse(409, { detail: 'This donation has already been decided.', code: 'already_decided' }),
      },
    );

    await user.click(await screen.findByRole('button', { name: /Reject donation #53/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This donation has already been decided.',
    );
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeEnabled();
  });

  it('reloads the lists after a rejection refused as already decided, so the decided booking leaves Due today', async () => {
    const { user } = renderActedMeanwhile(
      { due: [dueDonation] },
      { history: [{ ...dueDonation, status: 'rejected' }] },
      'POST /api/admin/donations/53/reject',
      'This donation has already been decided.',
    );

    await user.click(await screen.findByRole('button', { name: /Reject donation #53/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject donation #53' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This donation has already been decided.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: /Record collection of donation #53/ }),
      ).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('button', { name: /Reject donation #53/ })).not.toBeInTheDocument();
  });
});
