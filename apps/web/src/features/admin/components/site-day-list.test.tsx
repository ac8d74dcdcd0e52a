import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sameHoursEveryDay, type SiteDay } from '@bloodbank/shared/sites';
import { forgetBankTimeZone, setBankTimeZone } from '@/lib/bank-today';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { SiteDayList } from './site-day-list';

afterEach(() => forgetBankTimeZone());

const DAY: SiteDay = {
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
  date: '2026-03-09',
  open: true,
  hours: { open: '08:00', close: '16:00' },
  counts: { booked: 0, checked_in: 1, collected: 0, deferred: 0, no_show: 0 },
  appointments: [
    {
      donation_id: 7,
      time: '09:00',
      donor_id: 3,
      donor_name: 'Asha K',
      bloodgroup: 'A+',
      units: 1,
      state: 'checked_in',
      late: false,
      // 08:55 in Kolkata (UTC+05:30), 03:25 in UTC.
      checked_in_at: '2026-03-09T03:25:00.000Z',
      disease: 'None',
      lastDonation: null,
    },
  ],
};

describe("a site's day list", () => {
  // On a machine in UTC (CI) the browser's own clock would say 03:25.
  it("shows a donor's arrival on the bank's clock, as its slot, whatever the browser's zone", async () => {
    setBankTimeZone('Asia/Kolkata');
    mockApi({ 'GET /api/admin/sites/1/day': () => jsonResponse(200, DAY) });
    renderScreen(<SiteDayList siteId={1} date="2026-03-09" />);
    expect((await screen.findByText(/^Arrived/)).textContent).toBe('Arrived 08:55');
  });
});
