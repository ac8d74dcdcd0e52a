import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@bloodbank/shared/admin';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { auditStory, whenText } from '../audit-sentence';
import { dashboardHandler, paged } from '../testing/fixtures';
import { AuditScreen } from './audit-screen';

/** Today at 10:38 in the test's own time zone, so "at 10:38" holds wherever the test runs. */
const todayAt1038 = (() => {
  const date = new Date();
  date.setHours(10, 38, 7, 810);
  return date;
})();
const earlier = new Date(2026, 10, 20, 9, 5).toISOString();

const entry = (fields: Partial<AuditEntry> & Pick<AuditEntry, 'action' | 'entity'>): AuditEntry => ({
  id: 1,
  at: todayAt1038.toISOString(),
  actor: 'chief',
  actor_name: 'Chief',
  entity_id: 41,
  subject_name: 'Asha Kumar',
  detail: {},
  ...fields,
});

const entries: AuditEntry[] = [
  entry({
    id: 3,
    action: 'donor.deactivated',
    entity: 'donor',
    detail: {
      before: { is_active: true },
      after: { is_active: false, deactivated_at: todayAt1038.toISOString() },
    },
  }),
  entry({
    id: 2,
    at: earlier,
    action: 'donation.rejected',
    entity: 'donation',
    entity_id: 9,
    subject_name: 'Ravi Iyer',
    detail: {
      before: { status: 'pending' },
      after: { status: 'rejected', reason: 'Low haemoglobin', game: { points: 200, level: 3 } },
    },
  }),
  entry({
    id: 1,
    action: 'units.discarded',
    entity: 'blood_unit',
    entity_id: null,
    subject_name: null,
    detail: {
      after: {
        status: 'discarded',
        mode: 'count',
        reason: 'Bag damaged',
        bloodgroup: 'A+',
        unit_ids: [1, 2, 3],
      },
    },
  }),
];

describe('Audit Log', () => {
  it('reads as sentences with names and local times, never ids, ISO instants or JSON', async () => {
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': () => jsonResponse(200, paged(entries)),
    });
    renderScreen(<AuditScreen />);

    const [, deactivation, rejection, discard] = await screen.findAllByRole('row');
    expect(deactivation).toHaveTextContent('Chief deactivated donor Asha Kumar at 10:38');
    expect(rejection).toHaveTextContent("Chief rejected Ravi Iyer's donation on 20 Nov 2026 at 09:05");
    expect(rejection).toHaveTextContent('Reason: Low haemoglobin');
    expect(rejection).toHaveTextContent("Donor's game score: 200 points, level 3");
    expect(discard).toHaveTextContent('Chief discarded 3 units of A+ at 10:38');
    expect(discard).toHaveTextContent('Units #1, #2, #3');
    expect(discard).toHaveTextContent('Reason: Bag damaged');
    const table = screen.getByRole('table');
    expect(table).not.toHaveTextContent('#41');
    expect(table).not.toHaveTextContent('{');
    expect(table).not.toHaveTextContent(/\d{4}-\d{2}-\d{2}T/);
  });

  it('filters by record type', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': () => jsonResponse(200, paged([])),
    });
    const { user } = renderScreen(<AuditScreen />);

    expect(await screen.findByRole('heading', { name: 'No changes recorded yet' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Show'), 'donation');
    expect(await screen.findByRole('heading', { name: 'No changes match' })).toBeInTheDocument();
    await waitFor(() => expect(String(api.fetchMock.mock.calls.at(-1)?.[0])).toContain('entity=donation'));
  });

  it('finds changes by who made them and between two days; a range the wrong way round is said, and shows nothing', async () => {
    const api = mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/audit': () => jsonResponse(200, paged([])),
    });
    const { user, router } = renderScreen(<AuditScreen />);
    await screen.findByRole('heading', { name: 'No changes recorded yet' });

    await user.type(screen.getByLabelText('Who'), 'night{Enter}');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-02' } });
    await waitFor(() => {
      const asked = api.requests.at(-1)!.query;
      expect([asked.get('actor'), asked.get('from'), asked.get('to')]).toEqual([
        'night',
        '2026-03-01',
        '2026-03-02',
      ]);
    });
    expect(router.state.location.search).toBe('?actor=night&from=2026-03-01&to=2026-03-02');

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-02-27' } });
    expect(await screen.findByText('Must be on or after From')).toBeInTheDocument();
    await waitFor(() => expect(api.requests.at(-1)!.query.get('to')).toBe('2026-02-27'));
    expect(await screen.findByRole('heading', { name: 'No changes match' })).toBeInTheDocument();
  });

  it('writes every kind of change in words', () => {
    const now = todayAt1038;
    expect(
      auditStory(
        entry({
          action: 'patient.updated',
          entity: 'patient',
          subject_name: 'Meera Nair',
          detail: { before: { mobile: '9876543210', age: 40 }, after: { mobile: '9123456780', age: 41 } },
        }),
        now,
      ),
    ).toEqual({
      sentence: 'Chief updated patient Meera Nair at 10:38',
      details: ['Mobile: 9876543210 → 9123456780', 'Age: 40 → 41'],
    });
    expect(
      auditStory(
        entry({
          action: 'request.approved',
          entity: 'request',
          subject_name: null,
          entity_id: 12,
          detail: { after: { status: 'approved', issued_bloodgroup: 'O-', unit_ids: [4, 5] } },
        }),
        now,
      ),
    ).toEqual({
      sentence: 'Chief approved blood request #12 at 10:38',
      details: ['2 units of O- issued', 'Units #4, #5'],
    });
    // With the component (entries since it is recorded), and the bags by number.
    expect(
      auditStory(
        entry({
          action: 'request.approved',
          entity: 'request',
          subject_name: null,
          entity_id: 13,
          detail: {
            after: { status: 'approved', issued_bloodgroup: 'A+', component: 'plasma', unit_ids: [7] },
          },
        }),
        now,
      ).details,
    ).toEqual(['1 unit of A+ plasma issued', 'Unit #7']);
    expect(
      auditStory(
        entry({
          action: 'units.received',
          entity: 'blood_unit',
          entity_id: null,
          subject_name: null,
          detail: {
            after: { bloodgroup: 'B+', count: 1, collected_on: '2026-11-24', expires_on: '2027-01-05' },
          },
        }),
        now,
      ),
    ).toEqual({
      sentence: 'Chief received 1 unit of B+ at 10:38',
      details: ['Collected on 24 Nov 2026', 'Expires on 5 Jan 2027'],
    });
    expect(
      auditStory(
        entry({
          action: 'user.password_reset',
          entity: 'user',
          actor: 'system',
          actor_name: 'System',
          subject_name: 'Chief',
        }),
        now,
      ).sentence,
    ).toBe('System reset the password of Chief at 10:38');
  });

  it('says "at" for today and adds the day before that', () => {
    expect(whenText(todayAt1038.toISOString(), todayAt1038)).toBe('at 10:38');
    expect(whenText(earlier, todayAt1038)).toBe('on 20 Nov 2026 at 09:05');
  });
});
