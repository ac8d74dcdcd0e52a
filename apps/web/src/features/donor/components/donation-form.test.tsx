import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ELIGIBILITY_STATEMENT } from '@bloodbank/shared/constants';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import type { PublicSite, Slot } from '@bloodbank/shared/sites';
import { deferred, jsonResponse, mockApi, type MockRequest } from '@/test/mock-api';
import { formatDate } from '@/lib/format';
import { renderScreen } from '@/test/render';
import { CATALOGUE, donation, earned, meHandler, signInAsDonor, summary } from '../test/fixtures';
import { DonationForm } from './donation-form';
import { newAchievementsFrom } from './game-location-state';

type User = ReturnType<typeof renderScreen>['user'];

const eligibleToday = () =>
  summary({
    made: 0,
    pending: 0,
    approved: 0,
    rejected: 0,
    next_eligible_date: todayIn(),
    not_eligible_reason: null,
  });

/** The summary of a donor who may donate again from `date` (the interval since their last collection), in the server's words. */
const eligibleFromDate = (date: string) =>
  summary({
    pending: 0,
    next_eligible_date: date,
    not_eligible_reason: `You can donate again from ${date}.`,
  });

const reward = (achievements = [earned(CATALOGUE[0]!)]) => ({
  profile: { id: 3, points: 200, level: 3, donation_streak: 1 },
  points_credited: 100,
  achievements,
});

/** Shows what the donate page handed to the game dashboard. */
function GameProbe() {
  const location = useLocation();
  const names = newAchievementsFrom(location.state).map((item) => item.achievement.name);
  return <div data-testid="game-probe">game: {names.join(', ')}</div>;
}

function renderForm(handlers: Parameters<typeof mockApi>[0] = {}) {
  signInAsDonor();
  const api = mockApi({
    'GET /api/users/me': meHandler(),
    'GET /api/donor/summary': () => jsonResponse(200, eligibleToday()),
    'GET /api/donations/mine': () => jsonResponse(200, []),
    // No donation sites: the spec's booking by date alone (PRODUCT.md 3.6).
    'GET /api/sites': () => jsonResponse(200, []),
    ...handlers,
  });
  const view = renderScreen(<DonationForm />, {
    path: '/donor/donate',
    routes: [{ path: '/donor/game', element: <GameProbe /> }],
  });
  return { api, ...view };
}

const dateInput = () => screen.getByLabelText(/^donation date/i);
const unitsInput = () => screen.getByLabelText(/number of units/i);
const submitButton = () => screen.getByRole('button', { name: 'Submit Donation Request' });

async function fillValid(user: User, date = addDays(todayIn(), 5)) {
  await user.clear(unitsInput());
  await user.type(unitsInput(), '2');
  await user.type(dateInput(), date);
  await user.selectOptions(screen.getByLabelText(/health condition/i), 'High Blood Pressure');
  await user.click(screen.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT }));
}

/** A booking that goes through, after which the summary counts it pending (Make Another Donation then says Not yet). */
function bookingThatLeavesOnePending(): Parameters<typeof mockApi>[0] {
  let pending = false;
  return {
    'GET /api/donor/summary': () => jsonResponse(200, pending ? summary() : eligibleToday()),
    'POST /api/donations': () => {
      pending = true;
      return jsonResponse(201, donation({ date: addDays(todayIn(), 5) }));
    },
    'POST /api/game/donation-complete': () => jsonResponse(200, reward([])),
  };
}

describe('DonationForm', () => {
  it('shows the account blood group read-only, 1 unit by default, and the spec messages on an empty submit', async () => {
    const { api, user } = renderForm();

    const bloodGroup = await screen.findByLabelText(/blood group/i);
    await waitFor(() => expect(bloodGroup).toHaveValue('O+'));
    expect(bloodGroup).toHaveAttribute('readonly');
    expect(unitsInput()).toHaveValue(1);
    expect(screen.getByLabelText(/last donation date/i)).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT })).not.toBeChecked();

    await user.click(submitButton());

    expect(await screen.findByText('Donation date is required')).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByText('You must confirm this statement')).toBeInTheDocument();
    // The checkbox says it is invalid and reads its message, like the other fields.
    const confirmation = screen.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT });
    expect(confirmation).toHaveAttribute('aria-invalid', 'true');
    expect(confirmation).toHaveAccessibleDescription('You must confirm this statement');
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    await user.click(confirmation);
    await waitFor(() => expect(confirmation).toHaveAttribute('aria-invalid', 'false'));
    expect(confirmation).not.toHaveAttribute('aria-describedby');
  });

  it.each([
    ['', 'Number of units is required'],
    ['0', 'Minimum 1 unit is required'],
    ['3', 'Maximum 2 units can be donated at once'],
  ])('checks the units: "%s" gives "%s"', async (units, message) => {
    const { user } = renderForm();
    await screen.findByRole('form', { name: 'Donate Blood' });

    await user.clear(unitsInput());
    if (units) await user.type(unitsInput(), units);
    await user.click(submitButton());

    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('refuses a donation date in the past and a last donation in the future', async () => {
    const { api, user } = renderForm();
    await screen.findByRole('form', { name: 'Donate Blood' });

    await fillValid(user, addDays(todayIn(), -1));
    await user.type(screen.getByLabelText(/last donation date/i), addDays(todayIn(), 2));
    await user.click(submitButton());

    expect(await screen.findByText('Date cannot be in the past')).toBeInTheDocument();
    expect(screen.getByText('Last donation date cannot be in the future')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('submits (without a blood group), disables the button while busy, then shows success and the rewards', async () => {
    const date = addDays(todayIn(), 5);
    const submitted = deferred<Response>();
    const { api, user } = renderForm({
      'POST /api/donations': () => submitted.promise,
      'POST /api/game/donation-complete': () =>
        jsonResponse(
          200,
          reward([
            earned(CATALOGUE[0]!),
            earned(CATALOGUE[1]!),
            earned(CATALOGUE[2]!),
            earned(CATALOGUE[4]!),
          ]),
        ),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });

    await fillValid(user, date);
    await user.click(submitButton());

    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    const post = api.requests.find((request) => request.path === '/api/donations');
    expect(post?.json()).toEqual({
      unit: 2,
      date,
      disease: 'High Blood Pressure',
      lastDonation: null,
      confirmation: true,
    });

    submitted.resolve(jsonResponse(201, donation({ unit: 2, date, disease: 'High Blood Pressure' })));

    expect(await screen.findByText(/has been submitted successfully/)).toBeInTheDocument();
    // PRODUCT.md 3.4: the reward comes at collection, and the donor is told so.
    expect(screen.getByRole('status')).toHaveTextContent('+100 points when your donation is collected');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/donor/donor-dashboard',
    );
    expect(screen.getByRole('button', { name: 'Make Another Donation' })).toBeInTheDocument();

    const rewards = await screen.findByRole('region', { name: 'Blood Hero Rewards' });
    expect(within(rewards).getByTestId('reward-points')).toHaveTextContent('+100 points');
    expect(within(rewards).getByText('Level 3 · 200 points in total')).toBeInTheDocument();
    // Up to 3 of the 4 new achievements.
    const unlocked = within(rewards).getAllByRole('listitem');
    expect(unlocked).toHaveLength(3);
    expect(unlocked[0]).toHaveTextContent('Achievement Unlocked: First Time Hero');
    expect(unlocked[0]).toHaveTextContent('+100 points');
    expect(within(rewards).queryByText(/Consistent Donor/)).not.toBeInTheDocument();

    await user.click(within(rewards).getByRole('button', { name: 'View Game Dashboard' }));
    expect(await screen.findByTestId('game-probe')).toHaveTextContent(
      'game: First Time Hero, Regular Hero, Super Hero, Consistent Donor',
    );
  });

  it('books once for a double submit, and shows that booking', async () => {
    const date = addDays(todayIn(), 5);
    const submitted = deferred<Response>();
    let posts = 0;
    const { user } = renderForm({
      'POST /api/donations': () => {
        posts += 1;
        return posts === 1
          ? submitted.promise
          : jsonResponse(409, { detail: 'You already have a donation awaiting approval.' });
      },
      'POST /api/game/donation-complete': () => jsonResponse(200, reward([])),
    });
    const form = await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user, date);
    // Both submits before React renders the button busy, as a double-click or Enter twice gives them.
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(await screen.findByRole('button', { name: 'Submitting...' })).toBeDisabled();
    submitted.resolve(jsonResponse(201, donation({ unit: 2, date, disease: 'High Blood Pressure' })));

    expect(await screen.findByText(/has been submitted successfully/)).toBeInTheDocument();
    expect(posts).toBe(1);
    expect(screen.queryByText(/already have a donation awaiting approval/)).not.toBeInTheDocument();
  });

  it('shows the booking made when its answer was lost, instead of "Not yet" for a booking never shown', async () => {
    const date = addDays(todayIn(), 5);
    const booked = donation({
      id: 12,
      unit: 2,
      date,
      disease: 'High Blood Pressure',
      created_at: new Date().toISOString(),
    });
    let made = false;
    const { user, api } = renderForm({
      'GET /api/donor/summary': () => jsonResponse(200, made ? summary() : eligibleToday()),
      'GET /api/donations/mine': () => jsonResponse(200, made ? [booked] : []),
      // Booked on the server; the answer never reaches the phone.
      'POST /api/donations': () => {
        made = true;
        throw new TypeError('Failed to fetch');
      },
      'POST /api/game/donation-complete': () => jsonResponse(200, reward([])),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user, date);
    await user.click(submitButton());

    expect(await screen.findByText(/has been submitted successfully/)).toBeInTheDocument();
    expect(screen.queryByText(/Not yet/)).not.toBeInTheDocument();
    expect(
      api.requests.filter((request) => request.method === 'POST' && request.path === '/api/donations'),
    ).toHaveLength(1);
  });

  it('closes the rewards panel and starts again with Make Another Donation', async () => {
    const { user } = renderForm(bookingThatLeavesOnePending());
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user);
    await user.click(submitButton());

    const rewards = await screen.findByRole('region', { name: 'Blood Hero Rewards' });
    expect(within(rewards).queryAllByRole('listitem')).toHaveLength(0);
    await user.click(within(rewards).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Blood Hero Rewards' })).not.toBeInTheDocument();
    expect(screen.getByText(/has been submitted successfully/)).toBeInTheDocument();

    // The donor now has a pending donation: the form says so instead of letting them fail.
    await user.click(screen.getByRole('button', { name: 'Make Another Donation' }));
    expect(await screen.findByText(/You already have a donation awaiting approval\./)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Donate Blood' })).not.toBeInTheDocument();
  });

  it('brings the success message into view and focus, and after Make Another Donation what replaces it', async () => {
    // On a phone the page stays scrolled down where the submit button was; what replaces the form
    // starts above the screen.
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    const { user } = renderForm(bookingThatLeavesOnePending());
    await screen.findByRole('form', { name: 'Donate Blood' });
    // Arriving at the page moves nothing.
    expect(scrolled).not.toHaveBeenCalled();
    await fillValid(user);
    await user.click(submitButton());

    const thanks = await screen.findByRole('heading', { level: 2, name: 'Thank you!' });
    expect(thanks).toHaveFocus();
    expect(scrolled.mock.contexts).toEqual([thanks]);

    await user.click(screen.getByRole('button', { name: 'Make Another Donation' }));
    const notYet = await screen.findByRole('heading', { level: 2, name: 'Not yet' });
    await waitFor(() => expect(notYet).toHaveFocus());
    expect(scrolled.mock.contexts).toEqual([thanks, notYet]);
  });

  it('leaves focus and the view alone when the page opens on a Not yet notice', async () => {
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    renderForm({ 'GET /api/donor/summary': () => jsonResponse(200, summary()) });
    const notYet = await screen.findByRole('heading', { level: 2, name: 'Not yet' });
    expect(notYet).not.toHaveFocus();
    expect(scrolled).not.toHaveBeenCalled();
  });

  it('only logs a failed reward: the success message still shows', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = renderForm({
      'POST /api/donations': () => jsonResponse(201, donation({ date: addDays(todayIn(), 5) })),
      'POST /api/game/donation-complete': () =>
        jsonResponse(409, { detail: 'No completed donation to reward' }),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user);
    await user.click(submitButton());

    expect(await screen.findByText(/has been submitted successfully/)).toBeInTheDocument();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Blood Hero Rewards' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the server detail when there is one', async () => {
    const { user } = renderForm({
      'POST /api/donations': () =>
        jsonResponse(409, {
          detail: 'You already have a donation awaiting approval.',
          code: 'donation_pending',
        }),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user);
    await user.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You already have a donation awaiting approval.',
    );
    expect(submitButton()).toBeEnabled();
  });

  it('falls back to the spec message when the server gives no detail', async () => {
    const { user } = renderForm({
      'POST /api/donations': () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user);
    await user.click(submitButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to submit your donation request. Please try again.',
    );
  });

  it('puts a server field error on its field', async () => {
    const { user } = renderForm({
      'POST /api/donations': () =>
        jsonResponse(422, {
          detail: 'You can donate again from 2099-01-01.',
          code: 'not_eligible_yet',
          errors: { date: 'You can donate again from 2099-01-01.' },
        }),
    });
    await screen.findByRole('form', { name: 'Donate Blood' });
    await fillValid(user);
    await user.click(submitButton());

    await waitFor(() => expect(dateInput()).toHaveAttribute('aria-invalid', 'true'));
    // The server's binding message, with its date written as the screens write dates.
    expect(screen.getAllByText('You can donate again from 1 Jan 2099.')).toHaveLength(2);
  });

  it('says from which date the donor may donate and refuses an earlier date without sending it', async () => {
    const eligibleFrom = addDays(todayIn(), 30);
    const { api, user } = renderForm({
      'GET /api/donor/summary': () => jsonResponse(200, eligibleFromDate(eligibleFrom)),
    });

    expect(await screen.findByText(/Please choose a donation date from/)).toHaveTextContent(
      `You can donate again from ${formatDate(eligibleFrom)}.`,
    );
    expect(dateInput()).toHaveAttribute('min', eligibleFrom);

    await fillValid(user, addDays(todayIn(), 3));
    await user.click(submitButton());

    expect(
      await screen.findByText(`You can donate again from ${formatDate(eligibleFrom)}.`),
    ).toBeInTheDocument();
    expect(dateInput()).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('does not offer the form while a donation awaits approval', async () => {
    renderForm({ 'GET /api/donor/summary': () => jsonResponse(200, summary()) });

    expect(await screen.findByText(/You already have a donation awaiting approval\./)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Donate Blood' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/donor/donor-dashboard',
    );
  });

  it('does not offer the form to a permanently deferred donor', async () => {
    renderForm({
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({
            pending: 0,
            next_eligible_date: null,
            deferred: { type: 'permanent', until: null },
            not_eligible_reason: 'You cannot donate at this time. Please contact the blood bank.',
          }),
        ),
    });
    expect(
      await screen.findByText('You cannot donate at this time. Please contact the blood bank.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Donate Blood' })).not.toBeInTheDocument();
  });

  it('tells a permanently deferred donor so even while the sites cannot be loaded', async () => {
    renderForm({
      'GET /api/sites': () => jsonResponse(503, { detail: 'The service is temporarily unavailable.' }),
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({
            pending: 0,
            next_eligible_date: null,
            deferred: { type: 'permanent', until: null },
            not_eligible_reason: 'You cannot donate at this time. Please contact the blood bank.',
          }),
        ),
    });
    expect(
      await screen.findByText('You cannot donate at this time. Please contact the blood bank.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/sites could not be loaded/)).not.toBeInTheDocument();
  });

  /** The summary of a donor deferred until `until`, in the server's words. */
  const deferredUntil = (until: string) =>
    summary({
      pending: 0,
      next_eligible_date: until,
      deferred: { type: 'temporary', until },
      not_eligible_reason: `You are deferred from donating until ${until}.`,
    });

  it('says until when a temporarily deferred donor is deferred, in the words the server would use', async () => {
    const until = addDays(todayIn(), 20);
    renderForm({ 'GET /api/donor/summary': () => jsonResponse(200, deferredUntil(until)) });
    expect(
      await screen.findByText(new RegExp(`You are deferred from donating until ${formatDate(until)}\\.`)),
    ).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Donate Blood' })).toBeInTheDocument();
  });

  it('tells a donor deferred beyond the booking window from when they can book, instead of a form no date fits', async () => {
    const until = addDays(todayIn(), 120);
    renderForm({ 'GET /api/donor/summary': () => jsonResponse(200, deferredUntil(until)) });
    expect(
      await screen.findByText(
        `You are deferred from donating until ${formatDate(until)}. Donations are booked up to 90 days ahead, so you can book this one from ${formatDate(addDays(until, -90))}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Donate Blood' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument();
  });

  it('still offers the form when the eligibility check fails (the server checks again)', async () => {
    renderForm({ 'GET /api/donor/summary': () => jsonResponse(400, { detail: 'Bad request' }) });

    expect(await screen.findByRole('form', { name: 'Donate Blood' })).toBeInTheDocument();
  });

  it('offers no form while the sites cannot be loaded, and brings it back when they can', async () => {
    let reachable = false;
    const { user } = renderForm({
      'GET /api/sites': () =>
        reachable
          ? jsonResponse(200, [])
          : jsonResponse(503, { detail: 'The service is temporarily unavailable.' }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The donation sites could not be loaded, so no time can be booked yet.',
    );
    expect(screen.queryByRole('form', { name: 'Donate Blood' })).not.toBeInTheDocument();
    reachable = true;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('form', { name: 'Donate Blood' })).toBeInTheDocument();
  });

  it('shows the last donation the bank knows, read-only, and sends it', async () => {
    const lastGiven = addDays(todayIn(), -120);
    const { api, user } = renderForm({
      'GET /api/donations/mine': () =>
        jsonResponse(200, [
          donation({ id: 3, status: 'rejected', date: addDays(todayIn(), -20) }),
          donation({ id: 2, status: 'released', date: lastGiven, collected_on: lastGiven }),
          donation({ id: 1, status: 'collected', date: addDays(todayIn(), -300) }),
        ]),
      'POST /api/donations': () => jsonResponse(201, donation({ status: 'pending' })),
      'POST /api/game/donation-complete': () => jsonResponse(200, reward()),
    });

    const lastDonation = await screen.findByLabelText(/last donation date/i);
    await waitFor(() => expect(lastDonation).toHaveValue(lastGiven));
    expect(lastDonation).toHaveAttribute('readonly');
    expect(screen.getByText('From your donation history')).toBeInTheDocument();

    await fillValid(user);
    await user.click(submitButton());
    await waitFor(() => expect(api.requests.some((request) => request.method === 'POST')).toBe(true));
    const post = api.requests.find(
      (request) => request.path === '/api/donations' && request.method === 'POST',
    );
    expect(post?.json()).toMatchObject({ lastDonation: lastGiven });
  });

  it('keeps what the donor chose through a reload, but asks for the confirmation again; what the form fills in itself is no draft', async () => {
    const lastGiven = addDays(todayIn(), -120);
    const history = {
      'GET /api/donations/mine': () =>
        jsonResponse(200, [
          donation({ id: 2, status: 'released', date: lastGiven, collected_on: lastGiven }),
        ]),
    };
    const untouched = renderForm(history);
    await waitFor(() => expect(screen.getByLabelText(/last donation date/i)).toHaveValue(lastGiven));
    untouched.unmount();
    renderForm(history);
    await waitFor(() => expect(screen.getByLabelText(/last donation date/i)).toHaveValue(lastGiven));
    expect(screen.queryByText(/What you typed before/)).not.toBeInTheDocument();
    cleanup();

    const first = renderForm(history);
    await waitFor(() => expect(screen.getByLabelText(/last donation date/i)).toHaveValue(lastGiven));
    await fillValid(first.user, addDays(todayIn(), 6));
    first.unmount();
    renderForm(history);
    expect(await screen.findByText(/What you typed before is filled in again/)).toBeInTheDocument();
    expect(unitsInput()).toHaveValue(2);
    expect(dateInput()).toHaveValue(addDays(todayIn(), 6));
    expect(screen.getByLabelText(/health condition/i)).toHaveValue('High Blood Pressure');
    expect(screen.getByRole('checkbox', { name: ELIGIBILITY_STATEMENT })).not.toBeChecked();
  });

  it('leaves the last donation date to a first-time donor', async () => {
    renderForm();
    const lastDonation = await screen.findByLabelText(/last donation date/i);
    expect(lastDonation).not.toHaveAttribute('readonly');
    expect(lastDonation).toHaveValue('');
  });

  it('tells a donor whose declared last donation is less than 90 days before the chosen date from when to book', async () => {
    const { user } = renderForm();
    const lastDonation = await screen.findByLabelText(/last donation date/i);
    const declared = addDays(todayIn(), -58);
    await user.type(lastDonation, declared);
    await user.type(dateInput(), addDays(todayIn(), 5));
    const note = await screen.findByTestId('declared-interval');
    expect(note).toHaveTextContent(
      `You gave blood on ${formatDate(declared)}. There must be at least 90 days between donations, so please choose a date from ${formatDate(addDays(declared, 90))}.`,
    );
    expect(screen.getByTestId('declared-interval-region')).toHaveAttribute('role', 'status');

    // The 90th day after it is fine.
    await user.clear(dateInput());
    await user.type(dateInput(), addDays(declared, 90));
    await waitFor(() => expect(screen.queryByTestId('declared-interval')).not.toBeInTheDocument());
  });
});

describe('DonationForm at donation sites (PRODUCT.md 3.6)', () => {
  const HOURS = {
    monday: { open: '08:00', close: '16:00' },
    tuesday: { open: '08:00', close: '16:00' },
    wednesday: { open: '08:00', close: '16:00' },
    thursday: { open: '08:00', close: '16:00' },
    friday: { open: '08:00', close: '16:00' },
    saturday: { open: '09:00', close: '12:00' },
    sunday: null,
  };
  const SITES: PublicSite[] = [
    {
      id: 4,
      name: 'City Centre Donor Unit',
      address: '12 Park Street',
      hours: HOURS,
      slot_minutes: 15,
      closed_dates: [],
    },
    {
      id: 5,
      name: 'Riverside Clinic',
      address: '8 River Road',
      hours: { ...HOURS, saturday: null },
      slot_minutes: 30,
      closed_dates: [],
    },
  ];
  const date = addDays(todayIn(), 5);
  const slotsOf = (request: MockRequest): Slot[] => {
    if (request.path === '/api/sites/5/slots') return [{ time: '10:00', available: 0 }];
    return [
      { time: '09:00', available: 0 },
      { time: '09:15', available: 2 },
      { time: '09:30', available: 1 },
    ];
  };
  const sitesHandlers = (handlers: Parameters<typeof mockApi>[0] = {}) => ({
    'GET /api/sites': () => jsonResponse(200, SITES),
    'GET /api/sites/4/slots': (request: MockRequest) => jsonResponse(200, slotsOf(request)),
    'GET /api/sites/5/slots': (request: MockRequest) => jsonResponse(200, slotsOf(request)),
    ...handlers,
  });
  const siteSelect = () => screen.getByRole('combobox', { name: /donation site/i });
  const timeSelect = () => screen.getByRole('combobox', { name: /^time/i });
  const optionTexts = (select: HTMLElement) =>
    within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);

  it('says at once that a date is too early for the donor, and offers no times for it', async () => {
    const eligibleFrom = addDays(todayIn(), 30);
    const { api, user } = renderForm(
      sitesHandlers({
        'GET /api/donor/summary': () => jsonResponse(200, eligibleFromDate(eligibleFrom)),
      }),
    );
    await screen.findByRole('form', { name: 'Donate Blood' });
    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    await user.type(dateInput(), addDays(todayIn(), 3));

    // Before anything is sent: the date's own error, and the time says why it is empty.
    expect(dateInput()).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.getAllByText(`You can donate again from ${formatDate(eligibleFrom)}.`).length,
    ).toBeGreaterThan(0);
    expect(screen.getByText(/^Choose a date from .* onwards first\.$/)).toBeInTheDocument();
    expect(timeSelect()).toBeDisabled();
    expect(api.requests.some((request) => request.path.endsWith('/slots'))).toBe(false);

    await user.clear(dateInput());
    await user.type(dateInput(), addDays(eligibleFrom, 1));
    expect(dateInput()).not.toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(timeSelect()).toBeEnabled());
  });

  it('says which part of the appointment is missing: the site, or a date that can be booked', async () => {
    const { user } = renderForm(sitesHandlers());
    await screen.findByRole('form', { name: 'Donate Blood' });
    await user.type(dateInput(), addDays(todayIn(), -2));
    expect(screen.getByText('Choose a date from today to 90 days ahead first.')).toBeInTheDocument();
    // The date itself says why at once, in the words the submit would use.
    expect(dateInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Date cannot be in the past')).toBeInTheDocument();
    await user.clear(dateInput());
    await user.type(dateInput(), addDays(todayIn(), 91));
    expect(screen.getByText('Please choose a date within the next 90 days')).toBeInTheDocument();
    await user.clear(dateInput());
    await user.type(dateInput(), addDays(todayIn(), 5));
    expect(screen.getByText('Choose a donation site first.')).toBeInTheDocument();
    await user.clear(dateInput());
    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    expect(screen.getByText('Choose a date first.')).toBeInTheDocument();
  });

  it('keeps the site, date, time and health condition through a reload', async () => {
    const first = renderForm(sitesHandlers());
    await screen.findByRole('form', { name: 'Donate Blood' });
    await first.user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    await fillValid(first.user, date);
    await waitFor(() => expect(timeSelect()).toBeEnabled());
    await first.user.selectOptions(timeSelect(), '09:30 (1 place left)');
    first.unmount();

    // The sites answer after the session is known, as on a real reload: the draft is read while the
    // form still waits for them.
    renderForm(
      sitesHandlers({
        'GET /api/sites': () =>
          new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse(200, SITES)), 100)),
      }),
    );
    expect(await screen.findByText(/What you typed before is filled in again/)).toBeInTheDocument();
    expect(siteSelect()).toHaveValue('4');
    expect(dateInput()).toHaveValue(date);
    await waitFor(() => expect(timeSelect()).toHaveValue('09:30'));
    // A health answer the banner promises back: once lost silently when the sites were still loading.
    expect(screen.getByLabelText(/health condition/i)).toHaveValue('High Blood Pressure');
  });

  it('asks for a site and a time, beside the spec messages, and sends nothing', async () => {
    const { api, user } = renderForm(sitesHandlers());
    await screen.findByRole('form', { name: 'Donate Blood' });

    expect(timeSelect()).toBeDisabled();
    expect(screen.getByText('Choose a date and a donation site first.')).toBeInTheDocument();
    await user.click(submitButton());

    expect(await screen.findByText('Please choose a donation site')).toBeInTheDocument();
    expect(screen.getByText('Please choose a time slot')).toBeInTheDocument();
    expect(screen.getByText('Donation date is required')).toBeInTheDocument();
    expect(screen.getByText('You must confirm this statement')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('focuses the first invalid field in the order the fields appear: the site before the date', async () => {
    const { user } = renderForm(sitesHandlers());
    await screen.findByRole('form', { name: 'Donate Blood' });

    await user.click(unitsInput());
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Please choose a donation site')).toBeInTheDocument();
    expect(siteSelect()).toHaveFocus();

    // Then the date, which comes before the time, the health condition and the statement.
    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    await user.click(submitButton());
    await waitFor(() => expect(dateInput()).toHaveFocus());
  });

  it('offers only the free times of the chosen site and date, with the places left, and books one', async () => {
    const { api, user } = renderForm(
      sitesHandlers({
        'POST /api/donations': () =>
          jsonResponse(
            201,
            donation({
              unit: 2,
              date,
              appointment: {
                site_id: 4,
                site_name: 'City Centre Donor Unit',
                address: '12 Park Street',
                time: '09:30',
                ends: '09:45',
              },
            }),
          ),
        'POST /api/game/donation-complete': () => jsonResponse(200, reward([])),
      }),
    );
    await screen.findByRole('form', { name: 'Donate Blood' });

    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    // The site's address, then its week, under the choice.
    expect(screen.getByText('12 Park Street').parentElement).toHaveTextContent(
      '12 Park StreetMon–Fri 08:00–16:00 · Sat 09:00–12:00',
    );
    await fillValid(user, date);

    await waitFor(() => expect(timeSelect()).toBeEnabled());
    // 09:00 is full: not offered.
    expect(optionTexts(timeSelect())).toEqual([
      'Select a time',
      '09:15 (2 places left)',
      '09:30 (1 place left)',
    ]);
    expect(screen.getByText('2 free times')).toBeInTheDocument();
    const slotsRequest = api.requests.find((request) => request.path === '/api/sites/4/slots');
    expect(slotsRequest?.query.get('date')).toBe(date);

    await user.selectOptions(timeSelect(), '09:30 (1 place left)');
    await user.click(submitButton());

    expect(await screen.findByText(/has been submitted successfully/)).toHaveTextContent(
      'Come to City Centre Donor Unit at 09:30: staff record your donation there.',
    );
    expect(screen.getByTestId('appointment')).toHaveTextContent('City Centre Donor Unit');
    expect(screen.getByTestId('appointment')).toHaveTextContent('09:30–09:45');
    expect(screen.getByRole('button', { name: 'Add to Calendar' })).toBeInTheDocument();
    const post = api.requests.find(
      (request) => request.path === '/api/donations' && request.method === 'POST',
    );
    expect(post?.json()).toEqual({
      unit: 2,
      date,
      disease: 'High Blood Pressure',
      lastDonation: null,
      confirmation: true,
      site_id: 4,
      slot: '09:30',
    });
  });

  it('says when a site has no free time on the date, and lets go of a time no longer offered', async () => {
    const { user } = renderForm(sitesHandlers());
    await screen.findByRole('form', { name: 'Donate Blood' });

    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    await user.type(dateInput(), date);
    await waitFor(() => expect(timeSelect()).toBeEnabled());
    await user.selectOptions(timeSelect(), '09:15 (2 places left)');
    expect(timeSelect()).toHaveValue('09:15');

    await user.selectOptions(siteSelect(), 'Riverside Clinic');

    expect(await screen.findByTestId('no-free-times')).toHaveTextContent(
      'No free times at this site on this date. Please choose another date or site.',
    );
    expect(timeSelect()).toBeDisabled();
    expect(timeSelect()).toHaveValue('');
  });

  it('puts a slot that filled meanwhile on the time field and shows the times still free', async () => {
    let full = false;
    const { api, user } = renderForm(
      sitesHandlers({
        'GET /api/sites/4/slots': () =>
          jsonResponse(200, [
            { time: '09:15', available: 2 },
            { time: '09:30', available: full ? 0 : 1 },
          ]),
        'POST /api/donations': () => {
          full = true;
          return jsonResponse(409, {
            detail: 'This time slot is full. Please choose another time.',
            code: 'slot_full',
            errors: { slot: 'This time slot is full. Please choose another time.' },
          });
        },
      }),
    );
    await screen.findByRole('form', { name: 'Donate Blood' });
    await user.selectOptions(siteSelect(), 'City Centre Donor Unit');
    await fillValid(user, date);
    await waitFor(() => expect(timeSelect()).toBeEnabled());
    await user.selectOptions(timeSelect(), '09:30 (1 place left)');
    await user.click(submitButton());

    expect(
      await screen.findByText('This time slot is full. Please choose another time.'),
    ).toBeInTheDocument();
    expect(timeSelect()).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() =>
      expect(optionTexts(timeSelect())).toEqual(['Select a time', '09:15 (2 places left)']),
    );
    expect(timeSelect()).toHaveValue('');
    // Said once, on the field: no second alert above the form.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.path === '/api/sites/4/slots').length).toBeGreaterThan(1);
  });

  it('chooses the only site for the donor', async () => {
    renderForm(sitesHandlers({ 'GET /api/sites': () => jsonResponse(200, [SITES[0]]) }));
    await screen.findByRole('form', { name: 'Donate Blood' });
    await waitFor(() => expect(siteSelect()).toHaveValue('4'));
  });
});
