import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { forgetBankTimeZone, setBankTimeZone } from '@/lib/bank-today';
import { sameHoursEveryDay } from '@bloodbank/shared/sites';
import { formatDate } from '@/lib/format';
import { describe, expect, it, vi } from 'vitest';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { DonorDashboardRoute, GameDashboardRoute } from './routes';
import {
  CATALOGUE,
  donation,
  donor,
  earned,
  gameState,
  LEADERBOARD,
  meHandler,
  signInAsDonor,
  summary,
} from './test/fixtures';

const CITY_CENTRE = {
  id: 4,
  name: 'City Centre Donor Unit',
  address: '12 Park Street',
  hours: sameHoursEveryDay({ open: '08:00', close: '16:00' }),
  slot_minutes: 15,
  closed_dates: [],
};

function renderDashboard(
  handlers: Parameters<typeof mockApi>[0] = {},
  initialPath = '/donor/donor-dashboard',
) {
  signInAsDonor();
  const api = mockApi({
    'GET /api/users/me': meHandler(),
    'GET /api/donor/summary': () => jsonResponse(200, summary()),
    'GET /api/donations/mine': () => jsonResponse(200, []),
    'GET /api/game/state': () => jsonResponse(200, gameState()),
    'POST /api/game/donation-complete': () =>
      jsonResponse(409, { detail: 'No completed donation to reward' }),
    ...handlers,
  });
  return { api, ...renderScreen(<DonorDashboardRoute />, { path: '/donor/donor-dashboard', initialPath }) };
}

describe('DonorDashboardRoute', () => {
  it('greets the donor by first name, or as Donor', async () => {
    renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' })).toBeInTheDocument();
    expect(
      screen.getByText('Thank you for being a blood donor. Every donation you make can save up to 3 lives.'),
    ).toBeInTheDocument();
  });

  it('greets a donor without a first name as Donor', async () => {
    renderDashboard({ 'GET /api/users/me': meHandler({ ...donor, first_name: null }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Donor' })).toBeInTheDocument();
  });

  it('shows the game summary, the four counters, the feed, the next eligible date and the history', async () => {
    renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({
            made: 5,
            pending: 1,
            approved: 3,
            rejected: 1,
            activities: [
              {
                id: 2,
                kind: 'achievement_earned',
                message: 'Achievement unlocked: Regular Hero (+300 points).',
                created_at: '2026-07-13T12:00:00.000Z',
              },
              {
                id: 1,
                kind: 'donation_submitted',
                message: 'You offered to donate 1 unit on 13 Jul. It awaits approval.',
                created_at: '2026-07-13T12:00:00.000Z',
              },
            ],
          }),
        ),
      'GET /api/donations/mine': () =>
        jsonResponse(200, [
          donation({ id: 3, date: '2026-07-13', unit: 1, status: 'pending' }),
          donation({
            id: 2,
            date: '2026-06-21',
            unit: 2,
            status: 'rejected',
            rejection_reason: 'Haemoglobin too low',
          }),
          // Booked for 5 Feb, given the next day: listed by the day the blood was given.
          donation({ id: 1, date: '2026-02-05', unit: 1, status: 'released', collected_on: '2026-02-06' }),
        ]),
    });

    const game = await screen.findByRole('region', { name: 'Blood Hero Game' });
    expect(await within(game).findByTestId('summary-level')).toHaveTextContent('Level4');
    expect(within(game).getByTestId('summary-points')).toHaveTextContent('Points700');
    expect(within(game).getByRole('link', { name: 'Open Game' })).toHaveAttribute('href', '/donor/game');

    expect(await screen.findByTestId('counter-made')).toHaveTextContent('5Request Made');
    expect(screen.getByTestId('counter-pending')).toHaveTextContent('1Pending Request');
    expect(screen.getByTestId('counter-approved')).toHaveTextContent('3Approved Request');
    expect(screen.getByTestId('counter-rejected')).toHaveTextContent('1Rejected Request');

    const feed = screen.getByRole('region', { name: 'Recent Activities' });
    expect(within(feed).getAllByRole('listitem')[0]).toHaveTextContent(
      'Achievement unlocked: Regular Hero (+300 points).',
    );

    expect(screen.getByTestId('next-eligible-date')).toHaveTextContent('After your booking');
    expect(screen.getByRole('region', { name: 'Next Eligible Donation' })).toHaveTextContent(
      'You already have a donation awaiting approval.',
    );

    // jsdom is "narrow": one card per donation.
    const history = await screen.findByTestId('donation-history');
    const cards = within(history).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards[0]).toHaveTextContent('13 Jul 2026Booked1 unit');
    expect(cards[1]).toHaveTextContent('21 Jun 2026Rejected2 unitsReason: Haemoglobin too low');
    expect(cards[2]).toHaveTextContent('6 Feb 2026Released1 unit');
  });

  it('shows the empty feed text, an eligible date in the future, and the empty history', async () => {
    const eligibleFrom = addDays(todayIn(), 40);
    renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({
            made: 1,
            pending: 0,
            approved: 1,
            rejected: 0,
            next_eligible_date: eligibleFrom,
            not_eligible_reason: `You can donate again from ${eligibleFrom}.`,
          }),
        ),
    });

    expect(await screen.findByText('No recent activities to display.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Next Eligible Donation' })).toHaveTextContent(
      `You can donate again from ${formatDate(eligibleFrom)}.`,
    );
    expect(await screen.findByRole('heading', { name: 'No donations yet' })).toBeInTheDocument();
  });

  it('invites an eligible donor to donate today', async () => {
    renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(200, summary({ pending: 0, next_eligible_date: todayIn(), not_eligible_reason: null })),
    });

    expect(await screen.findByTestId('next-eligible-date')).toHaveTextContent('Today');
    expect(
      within(screen.getByRole('region', { name: 'Next Eligible Donation' })).getByRole('link', {
        name: 'Donate Blood',
      }),
    ).toHaveAttribute('href', '/donor/donate');
  });

  it("says Today once the bank's zone arrives, when the bank's day is already the eligible one and the browser's is not", async () => {
    // An hour at which the bank, on Kiritimati (UTC+14), is already a day ahead of this browser.
    const bankZone = 'Pacific/Kiritimati';
    const instant = Array.from({ length: 24 }, (_, hour) => new Date(Date.UTC(2026, 11, 15, hour))).find(
      (at) => todayIn(bankZone, at) > todayIn(undefined, at),
    )!;
    vi.useFakeTimers({ toFake: ['Date'], now: instant });
    try {
      const bankDay = todayIn(bankZone, instant);
      renderDashboard({
        'GET /api/donor/summary': () =>
          jsonResponse(200, summary({ pending: 0, next_eligible_date: bankDay, not_eligible_reason: null })),
      });
      // Drawn before the bank's details came (a slow network): the browser's day stands in.
      const headline = await screen.findByTestId('next-eligible-date');
      expect(headline).toHaveTextContent(formatDate(bankDay));
      act(() => setBankTimeZone(bankZone));
      await waitFor(() => expect(headline).toHaveTextContent('Today'));
    } finally {
      forgetBankTimeZone();
      vi.useRealTimers();
    }
  });

  it('thanks a donor for coming back only when they have given blood before', async () => {
    const eligible = { pending: 0, next_eligible_date: todayIn(), not_eligible_reason: null };
    const first = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ ...eligible, approved: 0 })),
    });
    const region = async () => screen.findByRole('region', { name: 'Next Eligible Donation' });
    expect(await region()).toHaveTextContent('You can donate now. One donation can save up to three lives.');
    expect(await region()).not.toHaveTextContent('coming back');
    first.unmount();

    renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ ...eligible, approved: 2 })),
    });
    expect(await region()).toHaveTextContent('You can donate now. Thank you for coming back!');
  });

  it('says the dashboard could not be loaded, once, and retries', async () => {
    let calls = 0;
    const { user } = renderDashboard({
      'GET /api/donor/summary': () => {
        calls += 1;
        return calls === 1 ? jsonResponse(400, { detail: 'Bad' }) : jsonResponse(200, summary({ made: 7 }));
      },
      'GET /api/donations/mine': () => jsonResponse(400, { detail: 'Bad' }),
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load dashboard data. Please try again.');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByTestId('counter-made')).toHaveTextContent('7Request Made');
  });

  it('hides the game summary when the game state fails, and offers a profile when there is none', async () => {
    const { unmount } = renderDashboard({
      'GET /api/game/state': () => jsonResponse(400, { detail: 'Bad' }),
    });
    expect(await screen.findByTestId('counter-made')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Blood Hero Game' })).not.toBeInTheDocument(),
    );
    unmount();

    renderDashboard({
      'GET /api/game/state': () => jsonResponse(404, { detail: 'Game profile not found.' }),
    });
    const game = await screen.findByRole('region', { name: 'Blood Hero Game' });
    expect(await within(game).findByRole('button', { name: 'Create Game Profile' })).toBeInTheDocument();
  });

  it('switches to the Blood Hero Game and Achievements tabs', async () => {
    const { user, router } = renderDashboard({
      'GET /api/game/leaderboard': () => jsonResponse(200, LEADERBOARD),
      'GET /api/game/achievements': () => jsonResponse(200, CATALOGUE),
      'GET /api/game/achievements/me': () => jsonResponse(200, [earned(CATALOGUE[0]!)]),
    });

    expect(await screen.findByRole('tab', { name: 'Dashboard', selected: true })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Blood Hero Game' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Blood Hero Game Dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=game');
    expect(await screen.findByText('Asha K. (You)')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Achievements' }));
    expect(await screen.findByTestId('gallery-count')).toHaveTextContent('1 of 5 earned');
  });

  it('opens the tab named in the address', async () => {
    renderDashboard(
      {
        'GET /api/game/achievements': () => jsonResponse(200, CATALOGUE),
        'GET /api/game/achievements/me': () => jsonResponse(200, []),
      },
      '/donor/donor-dashboard?tab=achievements',
    );

    expect(await screen.findByRole('tab', { name: 'Achievements', selected: true })).toBeInTheDocument();
    expect(await screen.findByTestId('gallery-count')).toHaveTextContent('0 of 5 earned');
  });
});

describe('DonorDashboardRoute: the donation lifecycle', () => {
  it.each([
    [donation({ status: 'pending', date: '2026-12-03' }), 'Booked for 3 Dec'],
    [donation({ status: 'collected' }), 'Collected, in testing'],
    [donation({ status: 'released' }), 'Released: thank you'],
    [donation({ status: 'rejected', rejection_reason: 'Clinic closed' }), 'Rejected'],
    [donation({ status: 'cancelled' }), 'Cancelled'],
    [donation({ status: 'no_show', date: '2026-11-20' }), 'Missed appointment on 20 Nov 2026'],
  ])('says where the latest booking stands (%#)', async (latest, words) => {
    renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: latest })),
    });
    expect(await screen.findByTestId('latest-booking-state')).toHaveTextContent(words);
    if (latest.status === 'rejected') {
      expect(screen.getByRole('region', { name: 'Your Latest Booking' })).toHaveTextContent(
        'Reason: Clinic closed',
      );
    }
    if (latest.status === 'released') {
      // Still true once the blood has gone to a patient, as the activity feed beside it may say.
      expect(screen.getByRole('region', { name: 'Your Latest Booking' })).toHaveTextContent(
        'Your blood goes to the patients who need it.',
      );
    }
  });

  it('shows only the follow-up text for a donation that needs follow-up, never a result, and how to contact the bank', async () => {
    renderDashboard({
      'GET /api/public/contact': () =>
        jsonResponse(200, { phone: '+44 20 7946 0018', email: 'donors@bank.example.org' }),
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({
            latest_donation: donation({ status: 'follow_up' }),
            deferred: { type: 'permanent', until: null },
          }),
        ),
      'GET /api/donations/mine': () => jsonResponse(200, [donation({ status: 'follow_up' })]),
    });
    expect(await screen.findByTestId('latest-booking-state')).toHaveTextContent(
      'Your donation needs follow-up. Please contact the blood bank.',
    );
    expect(screen.getByTestId('deferral-notice')).toHaveTextContent(
      'You cannot donate at this time. Please contact the blood bank.',
    );
    expect(await screen.findByTestId('donation-history')).toHaveTextContent('Needs follow-up');
    // Both the booking card and the deferral notice say how: the configured phone and e-mail.
    const card = screen.getByRole('region', { name: 'Your Latest Booking' });
    expect(
      await within(card).findByText(/Call the blood bank on/, {
        selector: '[data-testid="bank-contact-line"]',
      }),
    ).toHaveTextContent('Call the blood bank on +44 20 7946 0018 or write to donors@bank.example.org.');
    expect(within(card).getByRole('link', { name: '+44 20 7946 0018' })).toHaveAttribute(
      'href',
      'tel:+442079460018',
    );
    expect(within(screen.getByTestId('deferral-notice')).getByTestId('bank-contact-line')).toHaveTextContent(
      'Call the blood bank on +44 20 7946 0018',
    );
    expect(document.body.textContent).not.toMatch(/reactive|discarded/i);
  });

  /** The summary of a donor deferred for 30 days, whose latest booking is `latest`. */
  const deferredFor30Days = (latest: ReturnType<typeof donation>) => {
    const until = addDays(todayIn(), 30);
    return summary({
      pending: 0,
      latest_donation: latest,
      deferred: { type: 'temporary', until },
      next_eligible_date: until,
      not_eligible_reason: `You are deferred from donating until ${until}.`,
    });
  };

  it('shows a temporary deferral with its end date', async () => {
    renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, deferredFor30Days(donation({ status: 'deferred' }))),
    });
    expect(await screen.findByTestId('latest-booking-state')).toHaveTextContent(
      /^Deferred until \d{1,2} \w{3} \d{4}$/,
    );
    expect(screen.getByTestId('deferral-notice')).toHaveTextContent('Deferred until');
    expect(screen.getByTestId('deferral-notice')).toHaveTextContent(
      `You can book your next donation from ${formatDate(addDays(todayIn(), 30))}.`,
    );
  });

  it('says a booking after the deferral stands, instead of inviting another booking', async () => {
    const date = addDays(todayIn(), 40);
    renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(200, deferredFor30Days(donation({ status: 'pending', date }))),
    });
    const notice = await screen.findByTestId('deferral-notice');
    expect(notice).toHaveTextContent(`Your booking for ${formatDate(date)} stands.`);
    expect(notice).not.toHaveTextContent('You can book');
  });

  it('says a cancelled booking was cancelled without saying the donor did it (a deferral may have)', async () => {
    renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(200, deferredFor30Days(donation({ status: 'cancelled', date: addDays(todayIn(), 3) }))),
    });
    const card = await screen.findByRole('region', { name: 'Your Latest Booking' });
    expect(card).toHaveTextContent(/Your booking for \d{1,2} \w{3} \d{4} was cancelled\./);
    expect(card).not.toHaveTextContent('You cancelled');
  });

  /**
   * The dashboard over booking #9, pending until its first cancel; `answer` gives the answer to the
   * n-th cancel. `cancels()` counts the cancels sent.
   */
  function renderCancellableBooking(answer: (n: number) => Response | Promise<Response>) {
    let cancelled = 0;
    const api = renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({ latest_donation: donation({ id: 9, status: cancelled ? 'cancelled' : 'pending' }) }),
        ),
      'POST /api/donations/9/cancel': () => answer(++cancelled),
    });
    return { ...api, cancels: () => cancelled };
  }
  const cancelledBooking = () => jsonResponse(200, donation({ id: 9, status: 'cancelled' }));

  it('cancels a pending booking after a confirmation', async () => {
    const { user, cancels } = renderCancellableBooking(cancelledBooking);
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancels()).toBe(0);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel Booking' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Cancel Booking' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel this booking?' })).getByRole('button', {
        name: 'Yes, Cancel Booking',
      }),
    );
    expect(await screen.findByText('Your booking has been cancelled.')).toBeInTheDocument();
    expect(cancels()).toBe(1);
    await waitFor(() => expect(screen.getByTestId('latest-booking-state')).toHaveTextContent('Cancelled'));
    // The buttons went with the booking: focus is on the booking's heading, not lost to the page.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your Latest Booking' })),
    );
    expect(screen.queryByRole('button', { name: 'Cancel Booking' })).not.toBeInTheDocument();
  });

  it('sends one cancel for a double-click on "Yes, Cancel Booking" and says it is cancelled', async () => {
    const { user, cancels } = renderCancellableBooking((n) =>
      n > 1
        ? jsonResponse(409, { detail: 'This booking was cancelled. It can no longer be cancelled.' })
        : new Promise<Response>((resolve) => setTimeout(() => resolve(cancelledBooking()), 50)),
    );
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    // Both clicks before React renders the button busy, as a browser delivers a double-click.
    const yes = within(dialog).getByRole('button', { name: 'Yes, Cancel Booking' });
    fireEvent.click(yes);
    fireEvent.click(yes);

    expect(await screen.findByText('Your booking has been cancelled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancels()).toBe(1);
    expect(screen.queryByText(/can no longer be cancelled/)).not.toBeInTheDocument();
  });

  it('says the booking is cancelled when a cancel sent again after a lost answer finds it cancelled', async () => {
    let cancels = 0;
    const { user } = renderDashboard({
      'GET /api/donor/summary': () =>
        jsonResponse(
          200,
          summary({ latest_donation: donation({ id: 9, status: cancels ? 'cancelled' : 'pending' }) }),
        ),
      'POST /api/donations/9/cancel': () => {
        cancels += 1;
        // The first cancel is made on the server, and its answer never reaches the phone.
        if (cancels === 1) throw new TypeError('Failed to fetch');
        return jsonResponse(409, {
          detail: 'This booking was cancelled. It can no longer be cancelled.',
          code: 'not_pending',
        });
      },
      'GET /api/donations/mine': () => jsonResponse(200, [donation({ id: 9, status: 'cancelled' })]),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Booking' }));
    expect(await within(dialog).findByText(/Failed to cancel your booking/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Booking' }));
    expect(await screen.findByText('Your booking has been cancelled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(/can no longer be cancelled/)).not.toBeInTheDocument();
    expect(cancels).toBe(2);
  });

  /** Donation #9, booked in four days at 09:15 at City Centre (site 4). */
  const bookedAtCityCentre = () =>
    donation({
      id: 9,
      date: addDays(todayIn(), 4),
      appointment: {
        site_id: 4,
        site_name: 'City Centre Donor Unit',
        address: '12 Park Street',
        time: '09:15',
        ends: '09:30',
      },
    });

  it('shows the appointment of a booking at a site, moves it to another free time and offers the calendar file', async () => {
    const booked = bookedAtCityCentre();
    const date = booked.date;
    const newDate = addDays(todayIn(), 6);
    let latest = booked;
    const { api, user } = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: latest })),
      'GET /api/sites': () =>
        jsonResponse(200, [
          {
            id: 4,
            name: 'City Centre Donor Unit',
            address: '12 Park Street',
            hours: {
              monday: { open: '08:00', close: '16:00' },
              tuesday: { open: '08:00', close: '16:00' },
              wednesday: { open: '08:00', close: '16:00' },
              thursday: { open: '08:00', close: '16:00' },
              friday: { open: '08:00', close: '16:00' },
              saturday: { open: '08:00', close: '16:00' },
              sunday: { open: '08:00', close: '16:00' },
            },
            slot_minutes: 15,
            closed_dates: [],
          },
        ]),
      'GET /api/sites/4/slots': () =>
        jsonResponse(200, [
          { time: '09:15', available: 0 },
          { time: '11:00', available: 1 },
        ]),
      'POST /api/donations/9/reschedule': (request) => {
        const move = request.json() as { date: string; slot: string };
        latest = {
          ...booked,
          date: move.date,
          appointment: { ...booked.appointment!, time: move.slot, ends: '11:15' },
        };
        return jsonResponse(200, latest);
      },
    });

    const appointment = await screen.findByTestId('appointment');
    expect(appointment).toHaveTextContent('City Centre Donor Unit');
    expect(appointment).toHaveTextContent('12 Park Street');
    expect(appointment).toHaveTextContent('09:15–09:30');
    expect(screen.getByRole('button', { name: 'Add to Calendar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Move Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your booking' });
    expect(dialog).toHaveTextContent('You are booked for');
    expect(within(dialog).getByRole('combobox', { name: /donation site/i })).toHaveValue('4');
    const dateField = within(dialog).getByLabelText(/^donation date/i);
    expect(dateField).toHaveValue(date);
    await user.clear(dateField);
    await user.type(dateField, newDate);
    const time = within(dialog).getByRole('combobox', { name: /^time/i });
    await waitFor(() => expect(time).toBeEnabled());
    expect(
      within(time)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select a time', '11:00 (1 place left)']);
    await user.selectOptions(time, '11:00 (1 place left)');
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));

    expect(
      await screen.findByText(/Your booking is moved to .* at 11:00, City Centre Donor Unit\./),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('appointment')).toHaveTextContent('11:00–11:15'));
    expect(api.requests.find((request) => request.path === '/api/donations/9/reschedule')?.json()).toEqual({
      date: newDate,
      site_id: 4,
      slot: '11:00',
    });
  });

  it('puts focus on the Donation Date of the Move Booking dialog when the sites answer after it opened', async () => {
    const { user } = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: bookedAtCityCentre() })),
      'GET /api/sites': () =>
        new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse(200, [CITY_CENTRE])), 150)),
      'GET /api/sites/4/slots': () => jsonResponse(200, [{ time: '11:00', available: 1 }]),
    });

    await user.click(await screen.findByRole('button', { name: 'Move Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your booking' });
    const date = await within(dialog).findByLabelText(/Donation Date/);
    await waitFor(() => expect(date).toHaveFocus());
  });

  // Regression guards for the walkthrough's "the Time select stays red after a valid time is
  // chosen": neither way of getting the error keeps it once another free time is chosen.
  it('clears the Time error of the Move Booking dialog once a free time is chosen', async () => {
    const { user } = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: bookedAtCityCentre() })),
      'GET /api/sites': () => jsonResponse(200, [CITY_CENTRE]),
      'GET /api/sites/4/slots': () =>
        jsonResponse(200, [
          { time: '09:15', available: 0 },
          { time: '11:00', available: 1 },
        ]),
    });

    await user.click(await screen.findByRole('button', { name: 'Move Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your booking' });
    const time = within(dialog).getByRole('combobox', { name: /^time/i });
    await waitFor(() => expect(time).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));
    expect(await within(dialog).findByText('Please choose a time slot')).toBeInTheDocument();
    expect(time).toHaveAttribute('aria-invalid', 'true');

    await user.selectOptions(time, '11:00 (1 place left)');
    await waitFor(() => expect(time).toHaveAttribute('aria-invalid', 'false'));
    expect(within(dialog).queryByText('Please choose a time slot')).not.toBeInTheDocument();
  });

  it('clears the Move Booking dialog\'s "slot full" error once another free time is chosen', async () => {
    let full = false;
    const { user } = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: bookedAtCityCentre() })),
      'GET /api/sites': () => jsonResponse(200, [CITY_CENTRE]),
      'GET /api/sites/4/slots': () =>
        jsonResponse(200, [
          { time: '10:00', available: 1 },
          { time: '11:00', available: full ? 0 : 1 },
        ]),
      'POST /api/donations/9/reschedule': () => {
        full = true;
        return jsonResponse(409, {
          detail: 'This time slot is full. Please choose another time.',
          code: 'slot_full',
          errors: { slot: 'This time slot is full. Please choose another time.' },
        });
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Move Booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your booking' });
    const time = within(dialog).getByRole('combobox', { name: /^time/i });
    await waitFor(() => expect(time).toBeEnabled());
    await user.selectOptions(time, '11:00 (1 place left)');
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));
    expect(
      await within(dialog).findByText('This time slot is full. Please choose another time.'),
    ).toBeInTheDocument();
    expect(time).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(within(time).getAllByRole('option')).toHaveLength(2));

    await user.selectOptions(time, '10:00 (1 place left)');
    await waitFor(() => expect(time).toHaveAttribute('aria-invalid', 'false'));
    expect(within(dialog).queryByText(/This time slot is full/)).not.toBeInTheDocument();
  });

  it('downloads the booking as a calendar file', async () => {
    const createObjectURL = vi.fn(() => 'blob:calendar');
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = createObjectURL;
        static override revokeObjectURL = vi.fn();
      },
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { api, user } = renderDashboard({
      'GET /api/donor/summary': () => jsonResponse(200, summary({ latest_donation: donation({ id: 9 }) })),
      'GET /api/donations/9/calendar.ics': () =>
        new Response('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
          status: 200,
          headers: {
            'content-type': 'text/calendar',
            'content-disposition': 'attachment; filename="blood-donation-9.ics"',
          },
        }),
    });

    await user.click(await screen.findByRole('button', { name: 'Add to Calendar' }));

    await waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('blood-donation-9.ics');
    expect(link.href).toBe('blob:calendar');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    // Said too (the browser's download bar is not read out), and the keyboard stays on the button.
    expect(await screen.findByText('Open it to add the booking to your calendar.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Calendar' })).toHaveFocus();
    const request = api.requests.find((candidate) => candidate.path === '/api/donations/9/calendar.ics');
    expect(request?.headers.get('accept')).toBe('text/calendar');
    expect(request?.headers.get('authorization')).toBe('Bearer token-donor-7');
  });

  it('shows the rewards credited at collection when the donor opens the dashboard, once', async () => {
    const { api } = renderDashboard({
      'POST /api/game/donation-complete': () =>
        jsonResponse(200, {
          profile: { id: 3, points: 200, level: 2, donation_streak: 1 },
          points_credited: 100,
          achievements: [earned(CATALOGUE[0]!)],
        }),
    });
    const rewards = await screen.findByRole('region', { name: 'Blood Hero Rewards' });
    expect(within(rewards).getByTestId('reward-points')).toHaveTextContent('+100 points');
    expect(within(rewards).getByText('Achievement Unlocked: First Time Hero')).toBeInTheDocument();
    const modal = await screen.findByRole('dialog', { name: 'Achievement Unlocked!' });
    expect(within(modal).getByText('First Time Hero')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path === '/api/game/donation-complete')).toHaveLength(1);
    // The reward refreshes the game state and the summary.
    await waitFor(() =>
      expect(
        api.requests.filter((request) => request.path === '/api/game/state').length,
      ).toBeGreaterThanOrEqual(2),
    );
  });
});

describe('GameDashboardRoute', () => {
  it('celebrates the achievements handed over by the donate page once, then forgets them', async () => {
    signInAsDonor();
    mockApi({
      'GET /api/users/me': meHandler(),
      'GET /api/game/state': () => jsonResponse(200, gameState()),
      'GET /api/game/leaderboard': () => jsonResponse(200, LEADERBOARD),
      'POST /api/game/donation-complete': () =>
        jsonResponse(409, { detail: 'No completed donation to reward' }),
    });
    const { router, user } = renderScreen(<GameDashboardRoute />, { path: '/donor/game' });
    expect(await screen.findByTestId('tile-points')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/donor/donor-dashboard',
    );

    await router.navigate('/donor/game', {
      state: { newAchievements: [earned(CATALOGUE[0]!), earned(CATALOGUE[1]!)] },
    });
    const modal = await screen.findByRole('dialog', { name: 'Achievement Unlocked!' });
    expect(within(modal).getByText('+ 1 more achievements unlocked!')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Awesome!' }));

    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
