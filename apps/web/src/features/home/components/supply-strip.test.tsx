import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockApi, sampleUser } from '@/test/mock-api';
import { currentUserQueryKey } from '@/lib/auth/current-user';
import { renderScreen } from '@/test/render';
import { SupplyStrip } from './supply-strip';

const SUPPLY = [
  { bloodgroup: 'A+', level: 'good' },
  { bloodgroup: 'A-', level: 'low' },
  { bloodgroup: 'B+', level: 'good' },
  { bloodgroup: 'B-', level: 'critical' },
  { bloodgroup: 'AB+', level: 'low' },
  { bloodgroup: 'AB-', level: 'critical' },
  { bloodgroup: 'O+', level: 'good' },
  { bloodgroup: 'O-', level: 'critical' },
];

describe('SupplyStrip', () => {
  it('shows every group, in the usual order, with its level in words', async () => {
    mockApi({ 'GET /api/public/supply': () => jsonResponse(200, SUPPLY) });
    renderScreen(<SupplyStrip />);

    const strip = screen.getByRole('region', { name: 'Blood supply today' });
    expect(await within(strip).findAllByText('Critical')).toHaveLength(3);
    expect(
      within(strip)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['A+Good', 'A-Low', 'B+Good', 'B-Critical', 'AB+Low', 'AB-Critical', 'O+Good', 'O-Critical']);
    // The level is said in words, not by colour alone, and never as a count.
    expect(screen.getByTestId('supply-O-')).toHaveAttribute('data-level', 'critical');
    expect(strip.textContent).not.toMatch(/\d/);
    expect(strip).toHaveAttribute('aria-busy', 'false');
  });

  it('invites donors to book, through the donor login, which then opens the booking form', async () => {
    mockApi({ 'GET /api/public/supply': () => jsonResponse(200, SUPPLY) });
    renderScreen(<SupplyStrip />);

    expect(await screen.findByText('Low or critical?', { exact: false })).toHaveTextContent(
      'Low or critical? Book a donation.',
    );
    expect(screen.getByRole('link', { name: 'Book a donation' })).toHaveAttribute(
      'href',
      '/donor/donorlogin?next=%2Fdonor%2Fdonate',
    );
  });

  it.each([
    ['donor', 'Low or critical? Book a donation.', 'Book a donation', '/donor/donate'],
    ['patient', 'Need blood? Request Blood.', 'Request Blood', '/patient/make-request'],
  ] as const)(
    'offers a signed-in %s what fits them, not the donor login',
    async (userType, line, name, href) => {
      localStorage.setItem('token', `token-${userType}`);
      mockApi({
        'GET /api/public/supply': () => jsonResponse(200, SUPPLY),
        'GET /api/users/me': () => jsonResponse(200, { ...sampleUser, userType }),
      });
      renderScreen(<SupplyStrip />);

      const link = await screen.findByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expect(link.closest('p')).toHaveTextContent(line);
      expect(screen.getAllByRole('link')).toEqual([link]);
    },
  );

  it('invites an admin to nothing', async () => {
    localStorage.setItem('token', 'token-admin');
    mockApi({
      'GET /api/public/supply': () => jsonResponse(200, SUPPLY),
      'GET /api/users/me': () => jsonResponse(200, { ...sampleUser, userType: 'admin', bloodgroup: null }),
    });
    const { queryClient } = renderScreen(<SupplyStrip />);

    expect(await screen.findAllByText('Critical')).toHaveLength(3);
    // Signed in as the admin by now, not still checking the session.
    await waitFor(() => expect(queryClient.getQueryData(currentUserQueryKey)).toBeDefined());
    expect(screen.queryByText(/Low or critical\?/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows the eight groups with placeholders and says it is loading until the levels arrive', async () => {
    const supply = deferred<Response>();
    mockApi({ 'GET /api/public/supply': () => supply.promise });
    renderScreen(<SupplyStrip />);

    expect(await screen.findByText('Loading the blood supply…')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Blood supply today' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'A+',
      'A-',
      'B+',
      'B-',
      'AB+',
      'AB-',
      'O+',
      'O-',
    ]);
    expect(screen.queryByText('Good')).not.toBeInTheDocument();

    supply.resolve(jsonResponse(200, SUPPLY));
    expect(await screen.findAllByText('Critical')).toHaveLength(3);
    expect(screen.getByTestId('supply-A+')).toHaveTextContent('A+Good');
    expect(screen.queryByText('Loading the blood supply…')).not.toBeInTheDocument();
  });

  it('says when the supply cannot be loaded, keeps the invitation, and loads it again on Retry', async () => {
    let calls = 0;
    mockApi({
      'GET /api/public/supply': () => {
        calls += 1;
        return calls === 1 ? jsonResponse(503, { detail: 'Service Unavailable' }) : jsonResponse(200, SUPPLY);
      },
    });
    const { user } = renderScreen(<SupplyStrip />);

    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load the blood supply.');
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book a donation' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findAllByText('Low')).toHaveLength(2);
    expect(screen.getByTestId('supply-AB+')).toHaveTextContent('AB+Low');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
