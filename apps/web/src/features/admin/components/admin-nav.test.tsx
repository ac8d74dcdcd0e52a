import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboard, dashboardHandler } from '../testing/fixtures';
import { AdminNav } from './admin-nav';

describe('AdminNav', () => {
  it('says what each badge counts: the bookings due today (not every pending booking) and the pending requests', async () => {
    // The fixture: 3 pending bookings, of which 2 are due today or earlier, and 8 pending requests.
    mockApi({ 'GET /api/admin/dashboard': dashboardHandler });
    renderScreen(<AdminNav />);

    const donations = await screen.findByRole('link', { name: /^Donations\s+2 bookings due today$/ });
    expect(within(donations).getByTitle('2 bookings due today')).toHaveTextContent(/^2$/);
    const requests = screen.getByRole('link', { name: /^Requests\s+8 pending requests$/ });
    expect(within(requests).getByTitle('8 pending requests')).toHaveTextContent(/^8$/);
  });

  it('says one booking in the singular, and shows no badge when nothing waits', async () => {
    mockApi({
      'GET /api/admin/dashboard': () => jsonResponse(200, dashboard({ bookingsDue: 1, pendingRequests: 0 })),
    });
    renderScreen(<AdminNav />);

    const donations = await screen.findByRole('link', { name: /^Donations\s+1 booking due today$/ });
    expect(within(donations).getByTitle('1 booking due today')).toHaveTextContent(/^1$/);
    expect(screen.getByRole('link', { name: 'Requests' })).toBeInTheDocument();
  });
});
