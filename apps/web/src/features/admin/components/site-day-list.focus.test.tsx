import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import { sameHoursEveryDay, type DayAppointment, type SiteDay } from '@bloodbank/shared/sites';
import { bankToday } from '@/lib/bank-today';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { SiteDayList } from './site-day-list';

const today = bankToday();

const arrived = (donation_id: number, time: string, donor_name: string): DayAppointment => ({
  donation_id,
  time,
  donor_id: donation_id,
  donor_name,
  bloodgroup: 'A+',
  units: 1,
  state: 'checked_in',
  late: false,
  checked_in_at: null,
  disease: 'None',
  lastDonation: null,
});

function dayWith(appointments: DayAppointment[]): SiteDay {
  return {
    site: {
      id: 1,
      name: 'Central',
      address: 'Pune',
      hours: sameHoursEveryDay({ open: '08:00', close: '16:00' }),
      slot_minutes: 15,
      capacity: 2,
      closed_dates: [],
      active: true,
    },
    date: today,
    open: true,
    hours: { open: '08:00', close: '16:00' },
    counts: { booked: 0, checked_in: appointments.length, collected: 0, deferred: 0, no_show: 0 },
    appointments,
  };
}

describe("a site's day list: where focus goes after a collection", () => {
  it("goes on to the next donor's Record collection, then to the section's heading", async () => {
    const collected = new Set<number>();
    const rows = [arrived(7, '09:00', 'Asha K'), arrived(8, '09:15', 'Ravi R')];
    const collect = (id: number) => () => {
      collected.add(id);
      return jsonResponse(200, { status: 'collected', unit_ids: [100 + id] });
    };
    mockApi({
      'GET /api/admin/sites/1/day': () =>
        jsonResponse(
          200,
          dayWith(rows.map((row) => (collected.has(row.donation_id) ? { ...row, state: 'collected' } : row))),
        ),
      'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
      'POST /api/admin/donations/7/collect': collect(7),
      'POST /api/admin/donations/8/collect': collect(8),
    });
    const { user } = renderScreen(
      <section aria-labelledby="day-heading">
        <h2 id="day-heading" tabIndex={-1}>
          Day list
        </h2>
        <SiteDayList siteId={1} date={today} />
      </section>,
    );

    async function recordFor(name: string, id: number) {
      await user.click(
        await screen.findByRole('button', { name: new RegExp(`Record collection for ${name}`) }),
      );
      const dialog = await screen.findByRole('dialog', { name: `Record collection: donation #${id}` });
      await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.1');
      await user.type(within(dialog).getByLabelText(/Weight/), '68');
      await user.type(within(dialog).getByLabelText(/systolic/), '120');
      await user.type(within(dialog).getByLabelText(/diastolic/), '80');
      await user.type(within(dialog).getByLabelText(/Pulse/), '72');
      await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // Longer than Mantine's 10 ms before a closed dialog gives focus back.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    await recordFor('Asha K', 7);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Record collection for Ravi R/ })).toHaveFocus(),
    );
    await recordFor('Ravi R', 8);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Day list' })).toHaveFocus());
  });
});
