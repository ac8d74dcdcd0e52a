import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged } from '../testing/fixtures';
import { actionLabel, AuditScreen } from './audit-screen';

const entries = [
  {
    id: 3,
    at: '2026-11-21T10:00:00.000Z',
    actor: 'demo_admin',
    action: 'donor.updated',
    entity: 'donor',
    entity_id: 11,
    detail: { before: { mobile: '9876543210' }, after: { mobile: '9123456780' } },
  },
  {
    id: 2,
    at: '2026-11-20T10:00:00.000Z',
    actor: 'demo_admin',
    action: 'units.discarded',
    entity: 'blood_unit',
    entity_id: null,
    detail: { after: { status: 'discarded', unit_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } },
  },
];

describe('Audit Log', () => {
  it('shows who changed what and when, with before and after', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': () => jsonResponse(200, paged(entries)),
    });
    renderScreen(<AuditScreen />);

    const [, edit, discard] = await screen.findAllByRole('row');
    expect(edit).toHaveTextContent('Donor updated');
    expect(edit).toHaveTextContent('demo_admin');
    expect(edit).toHaveTextContent('donor #11');
    expect(edit).toHaveTextContent('mobile: 9876543210 → changed to 9123456780');
    expect(discard).toHaveTextContent('blood unit');
    expect(discard).toHaveTextContent('unit ids: 1, 2, 3, 4, 5, 6, 7, 8 … (+2 more, 10 in all)');
  });

  it('filters by record type', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': () => jsonResponse(200, paged([])),
    });
    const { user } = renderScreen(<AuditScreen />);

    expect(await screen.findByRole('heading', { name: 'No changes recorded yet' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Show'), 'donation');
    expect(await screen.findByRole('heading', { name: 'No changes of this kind yet' })).toBeInTheDocument();
    await waitFor(() => expect(String(api.fetchMock.mock.calls.at(-1)?.[0])).toContain('entity=donation'));
  });

  it('names actions in words', () => {
    expect(actionLabel('donation.approved')).toBe('Donation approved');
    expect(actionLabel('user.password_reset')).toBe('User password reset');
  });
});
