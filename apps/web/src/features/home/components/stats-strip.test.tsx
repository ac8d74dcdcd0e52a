import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { formatFigure, StatsStrip } from './stats-strip';

describe('StatsStrip', () => {
  it('shows the live figures in the "N+" style', async () => {
    mockApi({
      'GET /api/stats': () => jsonResponse(200, { donors: 15, patients: 25, units: 1234, donations: 30 }),
    });
    renderScreen(<StatsStrip />);

    expect(await screen.findByText('15+')).toBeInTheDocument();
    expect(screen.getByTestId('stat-patients')).toHaveTextContent('25+Patients');
    expect(screen.getByTestId('stat-units')).toHaveTextContent('1,234+Blood Units');
    expect(screen.getByTestId('stat-donations')).toHaveTextContent('30+Successful Donations');
  });

  it('says it is loading until the figures arrive', async () => {
    const stats = deferred<Response>();
    mockApi({ 'GET /api/stats': () => stats.promise });
    renderScreen(<StatsStrip />);

    expect(await screen.findByText('Loading the latest figures…')).toBeInTheDocument();
    stats.resolve(jsonResponse(200, { donors: 1, patients: 0, units: 0, donations: 0 }));
    expect(await screen.findByText('1+')).toBeInTheDocument();
    expect(screen.queryByText('Loading the latest figures…')).not.toBeInTheDocument();
  });

  it('invites the first donor when everything is zero', async () => {
    mockApi({
      'GET /api/stats': () => jsonResponse(200, { donors: 0, patients: 0, units: 0, donations: 0 }),
    });
    renderScreen(<StatsStrip />);

    expect(await screen.findByRole('link', { name: 'Be the first to register' })).toHaveAttribute(
      'href',
      '/donor/donorsignup',
    );
  });

  it('offers a retry when the figures cannot be loaded', async () => {
    let calls = 0;
    mockApi({
      'GET /api/stats': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse(503, { detail: 'Service Unavailable' })
          : jsonResponse(200, { donors: 2, patients: 3, units: 4, donations: 5 });
      },
    });
    const { user } = renderScreen(<StatsStrip />);

    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load the latest figures.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('5+')).toBeInTheDocument();
  });

  it('formats figures', () => {
    expect(formatFigure(0)).toBe('0');
    expect(formatFigure(7)).toBe('7+');
    expect(formatFigure(12000)).toBe('12,000+');
  });
});
