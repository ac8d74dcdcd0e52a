import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Deferral } from '@bloodbank/shared/donation-lifecycle';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, donor, paged } from '../testing/fixtures';
import { PeopleScreen } from '../screens/people-screen';

const deferral: Deferral = {
  id: 5,
  donor_id: 11,
  type: 'temporary',
  until: '2026-12-25',
  reason: 'Haemoglobin 11.8 g/dL is below 12.5 g/dL.',
  source: 'screening',
  donation_id: 52,
  created_by: 'admin',
  created_at: '2026-11-25T09:00:00.000Z',
  active: true,
  lifted_at: null,
  lifted_by: null,
  lift_reason: null,
};
const permanent: Deferral = { ...deferral, id: 6, type: 'permanent', until: null, source: 'manual' };

describe("a donor's deferrals: where focus goes after a lift", () => {
  it("goes on to the next deferral's Lift, then to the Deferrals heading, inside the drawer", async () => {
    const lifted = new Set<number>();
    const lift = (item: Deferral) => () => {
      lifted.add(item.id);
      return jsonResponse(200, { ...item, active: false, lifted_at: '2026-11-26T10:00:00.000Z' });
    };
    mockApi({
      'GET /api/admin/dashboard': dashboardHandler,
      'GET /api/admin/donors': () => jsonResponse(200, paged([donor])),
      'GET /api/admin/donors/11/deferrals': () =>
        jsonResponse(
          200,
          [deferral, permanent].map((item) =>
            lifted.has(item.id)
              ? {
                  ...item,
                  active: false,
                  lifted_at: '2026-11-26T10:00:00.000Z',
                  lifted_by: 'admin',
                  lift_reason: 'Retested',
                }
              : item,
          ),
        ),
      'POST /api/admin/deferrals/5/lift': lift(deferral),
      'POST /api/admin/deferrals/6/lift': lift(permanent),
    });
    const { user } = renderScreen(<PeopleScreen kind="donors" />);
    await user.click(await screen.findByRole('button', { name: 'Details of Asha Kulkarni (asha.k)' }));
    const drawer = await screen.findByRole('dialog', { name: /Asha Kulkarni/ });

    async function liftOne(name: RegExp) {
      await user.click(await within(drawer).findByRole('button', { name }));
      const dialog = await screen.findByRole('dialog', { name: 'Lift deferral' });
      await user.type(within(dialog).getByLabelText(/Reason for lifting/), 'Retested');
      await user.click(within(dialog).getByRole('button', { name: 'Lift deferral' }));
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Lift deferral' })).not.toBeInTheDocument(),
      );
      // Longer than Mantine's 10 ms before a closed dialog gives focus back.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    await liftOne(/Lift deferral: Temporary/);
    await waitFor(() =>
      expect(within(drawer).getByRole('button', { name: 'Lift deferral: Permanent' })).toHaveFocus(),
    );
    await liftOne(/Lift deferral: Permanent/);
    await waitFor(() => expect(within(drawer).getByRole('heading', { name: 'Deferrals' })).toHaveFocus());
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
  });
});
