import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, mockApi, sampleUser } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { stubMediaQueries } from '@/test/media-query';
import { dashboard } from '../testing/fixtures';
import { AdminDashboardScreen } from './dashboard-screen';

// jsdom has no layout to draw a chart in; the charts' labelled images and captions are what is tested.
vi.mock('@mantine/charts', () => ({ BarChart: () => <svg data-testid="bar-chart" /> }));

const admin = {
  ...sampleUser,
  userId: 1,
  userType: 'admin' as const,
  username: 'demo_admin',
  first_name: null,
};

function signedInAdmin(handlers: Parameters<typeof mockApi>[0]) {
  localStorage.setItem('token', 'token-1');
  return mockApi({ 'GET /api/users/me': () => jsonResponse(200, admin), ...handlers });
}

describe('Administrator Dashboard', () => {
  it('shows a spinner, then greets the admin and shows the real numbers', async () => {
    const answer = deferred<Response>();
    signedInAdmin({ 'GET /api/admin/dashboard': () => answer.promise });
    renderScreen(<AdminDashboardScreen />);

    expect(await screen.findByText('Loading dashboard…')).toBeInTheDocument();
    answer.resolve(jsonResponse(200, dashboard()));

    expect(await screen.findByText('Welcome, demo_admin')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Administrator Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('count-Total Donors')).toHaveTextContent('15');
    expect(screen.getByTestId('count-Total Patients')).toHaveTextContent('25');
    expect(screen.getByTestId('count-Total Blood Units')).toHaveTextContent('80');
    expect(screen.getByTestId('count-Pending Requests')).toHaveTextContent('8');
    // What awaits staff (PRODUCT.md 3.2): bookings due and collections awaiting their results.
    expect(screen.getByTestId('bookings-due')).toHaveTextContent('2 bookings due');
    expect(screen.getByTestId('awaiting-results')).toHaveTextContent('1 awaiting results');
  });

  it('links the cards to the management screens', async () => {
    signedInAdmin({ 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard()) });
    renderScreen(<AdminDashboardScreen />);

    expect(await screen.findByRole('link', { name: 'Manage Donors' })).toHaveAttribute(
      'href',
      '/admin-donor',
    );
    expect(screen.getByRole('link', { name: 'Manage Patients' })).toHaveAttribute('href', '/admin-patient');
    expect(screen.getAllByRole('link', { name: 'Manage Blood' })[0]).toHaveAttribute('href', '/admin-blood');
    expect(screen.getByRole('link', { name: 'Manage Requests' })).toHaveAttribute('href', '/admin-request');
    expect(screen.getByRole('link', { name: 'Review Donations' })).toHaveAttribute('href', '/admin-donation');
  });

  it('shows the inventory per group and component, whose total is the units card', async () => {
    // A wide screen: a column per component.
    const matchMedia = stubMediaQueries(() => true);
    const data = dashboard();
    // One AB+ unit left: what the home page calls Critical (under SUPPLY_CRITICAL_UNITS).
    data.inventory = data.inventory.map((row) =>
      row.bloodgroup === 'AB+' ? { ...row, units: 1, critical: true } : row,
    );
    signedInAdmin({ 'GET /api/admin/dashboard': () => jsonResponse(200, data) });
    renderScreen(<AdminDashboardScreen />);

    const table = await screen.findByRole('table', { name: 'Units per blood group' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(10);
    const cells = (index: number) => Array.from(rows[index]!.children, (cell) => cell.textContent);
    expect(cells(0)).toEqual([
      'Blood Group',
      'Whole blood',
      'Red cells',
      'Plasma',
      'Platelets',
      'Expiring in 7 days',
      'In testing',
      'Status',
    ]);
    // Every component, then expiring in 7 days, in testing (with those on lookback hold under it; never stock), and the status of red cells + whole blood.
    expect(cells(1)).toEqual(['A+', '4', '8', '6', '0', '2', '0', 'OK']);
    expect(cells(3)).toEqual(['B+', '2', '6', '4', '0', '0', '2', 'OK']);
    expect(cells(4)).toEqual(['B-', '0', '0', '0', '0', '0', '0', 'Out of stock']);
    expect(cells(5).at(-1)).toBe('Critical');
    expect(cells(6)).toEqual(['AB-', '0', '2', '1', '0', '0', '0', 'Low']);
    expect(cells(7)[0]).toBe('O+');
    expect(within(rows[7]!.children[6] as HTMLElement).getByText('1 on hold')).toBeInTheDocument();
    expect(cells(9)).toEqual(['Total', '15', '37', '27', '1', '2', '21 on hold', '']);
    // The card counts every component: 15 + 37 + 27 + 1.
    expect(screen.getByTestId('count-Total Blood Units')).toHaveTextContent('80');
    expect(screen.getByTestId('count-Total Blood Units')).toHaveTextContent('All components');
    expect(screen.getByTestId('inventory-total')).toHaveTextContent('80 usable units of every component.');
    matchMedia.mockRestore();
  });

  it("on a phone, puts each group's components in one cell", async () => {
    signedInAdmin({ 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard()) });
    renderScreen(<AdminDashboardScreen />);

    const table = await screen.findByRole('table', { name: 'Units per blood group' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Blood Group', 'Stock per component', 'Status']);
    expect(rows[1]).toHaveTextContent('A+Whole blood 4Red cells 8Plasma 6Platelets 02 expiring in 7 daysOK');
    expect(rows[3]).toHaveTextContent('2 in testing (not stock)');
    expect(rows[3]).not.toHaveTextContent('on lookback hold');
    expect(rows[7]).toHaveTextContent('1 on lookback hold (not stock)');
    expect(rows[9]).toHaveTextContent('Total80');
  });

  it('lists the low groups and the units that expire within 7 days', async () => {
    signedInAdmin({ 'GET /api/admin/dashboard': () => jsonResponse(200, dashboard()) });
    renderScreen(<AdminDashboardScreen />);

    expect(await screen.findByRole('heading', { name: 'Low Stock Alerts' })).toBeInTheDocument();
    expect(screen.getByText('3 groups are under 5 units:')).toBeInTheDocument();
    expect(screen.getByText('out of stock')).toBeInTheDocument();
    // Grouped by day, group and component.
    expect(screen.getByText('2 units of red cells on 24 Nov 2026')).toBeInTheDocument();
    expect(screen.getByText('1 unit of platelets on 24 Nov 2026')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /Units per blood group: A\+ 12, A- 5, B\+ 8, B- 0/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Weekly donations and requests/ })).toBeInTheDocument();
    // Each card's link opens Manage Blood at the form or the table it names.
    expect(screen.getByRole('link', { name: 'Receive units' })).toHaveAttribute(
      'href',
      '/admin-blood#receive-units',
    );
    expect(screen.getByRole('link', { name: 'See units' })).toHaveAttribute(
      'href',
      '/admin-blood?status=available#units',
    );
    // The O+ units past their date, still on the shelf: no stock, waiting to be discarded.
    expect(screen.getByTestId('expired-on-shelf')).toHaveTextContent(
      '3 units are past expiry and still on the shelf: not stock, to be discarded. See expired units',
    );
    expect(screen.getByRole('link', { name: 'See expired units' })).toHaveAttribute(
      'href',
      '/admin-blood?status=expired#units',
    );
  });

  it('says so when nothing is low or expiring', async () => {
    const calm = dashboard();
    calm.inventory = calm.inventory.map((row) => ({
      ...row,
      units: 9,
      low: false,
      critical: false,
      expiring_soon: 0,
      expired: 0,
    }));
    signedInAdmin({ 'GET /api/admin/dashboard': () => jsonResponse(200, { ...calm, expiringUnits: [] }) });
    renderScreen(<AdminDashboardScreen />);

    expect(await screen.findByText('Every blood group has at least 5 units.')).toBeInTheDocument();
    expect(screen.getByText('No units expire in the next 7 days.')).toBeInTheDocument();
    expect(screen.queryByTestId('expired-on-shelf')).not.toBeInTheDocument();
  });

  it('shows the spec error message with a retry when loading fails', async () => {
    let calls = 0;
    signedInAdmin({
      'GET /api/admin/dashboard': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(503, { detail: 'Service Unavailable' })
          : jsonResponse(200, dashboard());
      },
    });
    const { user } = renderScreen(<AdminDashboardScreen />);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load dashboard data. Please try again.',
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('count-Total Donors')).toHaveTextContent('15');
  });
});
