import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { availableUnit, dashboardHandler, paged, pendingDonation, pendingRequest } from '../testing/fixtures';
import type { AuditEntry } from '@bloodbank/shared/admin';
import { AuditScreen } from './audit-screen';
import { BloodScreen } from './blood-screen';
import { DonationsScreen } from './donations-screen';
import { RequestsScreen } from './requests-screen';

/** The whole suite on two busy cores: a list may take more than waitFor's second to come. */
const SLOW = { timeout: 5000 };

/** The polite status a filter's result is said in: in the page, empty, from the first load. */
function filterStatus() {
  const status = screen
    .getAllByRole('status')
    .find((element) => element.getAttribute('aria-live') === 'polite' && element.textContent === '');
  expect(status).toBeDefined();
  expect(status).toHaveAttribute('aria-atomic', 'true');
  return status!;
}

describe('Manage Requests and Manage Donations: what a status filter found, for a screen reader', () => {
  it('Manage Requests says nothing on first load, then how many requests the status chosen holds', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/requests': ({ query }) => {
        const status = query.get('status');
        if (status === 'approved')
          return jsonResponse(200, paged([{ ...pendingRequest, id: 12, status: 'approved' }]));
        if (status === 'rejected') return jsonResponse(200, paged([]));
        return jsonResponse(200, paged([pendingRequest, { ...pendingRequest, id: 12, status: 'approved' }]));
      },
    });
    const { user } = renderScreen(<RequestsScreen />);
    expect(await screen.findAllByText(pendingRequest.patient_name)).toHaveLength(2);
    const status = filterStatus();

    await user.selectOptions(screen.getByLabelText('Status'), 'Approved');
    await waitFor(() => expect(status).toHaveTextContent('1 request found.'), SLOW);
    await user.selectOptions(screen.getByLabelText('Status'), 'Rejected');
    await waitFor(() => expect(status).toHaveTextContent('No rejected requests.'), SLOW);
    await user.selectOptions(screen.getByLabelText('Status'), 'All (pending first)');
    await waitFor(() => expect(status).toHaveTextContent('2 requests found.'), SLOW);
  });

  it("Manage Donations says how many donations the history's status holds", async () => {
    const released = { ...pendingDonation, id: 60, status: 'released' as const };
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
      'GET /api/admin/donations': ({ query }) => {
        const status = query.get('status');
        // The sections above the history: nothing due, upcoming or in testing.
        if (query.has('due') || status === 'collected') return jsonResponse(200, paged([]));
        if (status === 'released')
          return jsonResponse(200, paged([released, { ...released, id: 61 }, { ...released, id: 62 }]));
        if (status) return jsonResponse(200, paged([]));
        return jsonResponse(200, paged([released]));
      },
    });
    const { user } = renderScreen(<DonationsScreen />);
    expect(await screen.findByText(released.donor_name)).toBeInTheDocument();
    const status = filterStatus();

    await user.selectOptions(screen.getByLabelText('Status'), 'Released');
    await waitFor(() => expect(status).toHaveTextContent('3 donations found.'), SLOW);
    await user.selectOptions(screen.getByLabelText('Status'), 'No-show');
    await waitFor(() => expect(status).toHaveTextContent('No donations: no-show.'), SLOW);
  });
});

describe('Manage Blood and the Audit Log: what a filter found, for a screen reader', () => {
  it('Manage Blood says how many units the group, component or status chosen holds', async () => {
    const unit = availableUnit;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/units': ({ query }) => {
        const status = query.get('status');
        if (status === 'quarantined') return jsonResponse(200, paged([]));
        if (status === 'issued') return jsonResponse(200, paged([{ ...unit, id: 8, status: 'issued' }]));
        if (status === 'discarded') return jsonResponse(200, paged([]));
        return jsonResponse(200, paged([unit, { ...unit, id: 9 }]));
      },
    });
    const { user } = renderScreen(<BloodScreen />);
    expect(await screen.findByRole('cell', { name: '#9' })).toBeInTheDocument();
    const status = filterStatus();

    await user.selectOptions(screen.getByLabelText('Status'), 'issued');
    await waitFor(() => expect(status).toHaveTextContent('1 unit found.'), SLOW);
    await user.selectOptions(screen.getByLabelText('Status'), 'discarded');
    await waitFor(() => expect(status).toHaveTextContent('No units match these filters.'), SLOW);
  });

  it('the Audit Log says how many changes the filter found', async () => {
    const entry: AuditEntry = {
      id: 1,
      at: '2026-11-20T10:00:00.000Z',
      actor: 'admin',
      actor_name: 'Admin',
      action: 'site.created',
      entity: 'site',
      entity_id: 3,
      subject_name: null,
      detail: { after: { name: 'Town Hall' } },
    } as unknown as AuditEntry;
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': ({ query }) =>
        jsonResponse(200, paged(query.get('entity') === 'donation' ? [] : [entry, { ...entry, id: 2 }])),
    });
    const { user } = renderScreen(<AuditScreen />);
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(2), SLOW);
    const status = filterStatus();

    await user.selectOptions(screen.getByLabelText('Show'), 'donation');
    await waitFor(() => expect(status).toHaveTextContent('No changes match.'), SLOW);
    await user.selectOptions(screen.getByLabelText('Show'), 'site');
    await waitFor(() => expect(status).toHaveTextContent('2 changes found.'), SLOW);
  });
});
