import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AdminDonation } from '@bloodbank/shared/admin';
import { addDays, todayIn } from '@bloodbank/shared/dates';
import { DEFAULT_SCREENING_THRESHOLDS } from '@bloodbank/shared/donation-lifecycle';
import { jsonResponse, mockApi, type MockRequest } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { dashboardHandler, paged, pendingDonation } from '../testing/fixtures';
import { DonationsScreen } from './donations-screen';

/**
 * The clock at a fixed noon for this file: its fixtures are made when it loads, and a run that
 * crossed midnight had fixtures of one day and a screen of the next. Only Date is faked; it goes on
 * from there, and timers stay real.
 */
vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-06-10T12:00:00Z'), shouldAdvanceTime: true });
afterAll(() => vi.useRealTimers());

const today = todayIn();

const first: AdminDonation = {
  ...pendingDonation,
  id: 52,
  date: today,
  disease: 'None',
  donor_name: 'Ravi Reddy',
};
const second: AdminDonation = { ...first, id: 53, donor_name: 'Asha Kulkarni' };
const collected = (donation: AdminDonation): AdminDonation => ({
  ...donation,
  status: 'collected',
  date: addDays(today, -1),
  collected_on: addDays(today, -1),
  unit_ids: [300 + donation.id],
});

/** Longer than Mantine's 10 ms before a closed dialog gives focus back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * Manage Donations whose lists lose a donation once it is acted on: `acted` holds the ids done.
 * Bookings due today are `due`; those awaiting results `awaiting`.
 */
function renderLists(due: AdminDonation[], awaiting: AdminDonation[]) {
  const acted = new Set<number>();
  const act = (id: number, body: unknown) => () => {
    acted.add(id);
    return jsonResponse(200, body);
  };
  const handlers: Parameters<typeof mockApi>[0] = {
    'GET /api/admin/dashboard': dashboardHandler,
    'GET /api/admin/screening-thresholds': () => jsonResponse(200, DEFAULT_SCREENING_THRESHOLDS),
    'GET /api/admin/donations': (request: MockRequest) => {
      const status = request.query.get('status');
      const due_ = request.query.get('due');
      const left = (list: AdminDonation[]) => list.filter((donation) => !acted.has(donation.id));
      if (status === 'pending' && due_ === 'true') return jsonResponse(200, paged(left(due)));
      if (status === 'collected') return jsonResponse(200, paged(left(awaiting)));
      return jsonResponse(200, paged([]));
    },
  };
  for (const donation of [...due, ...awaiting]) {
    handlers[`POST /api/admin/donations/${donation.id}/collect`] = act(donation.id, {
      status: 'collected',
      unit_ids: [300 + donation.id],
    });
    handlers[`POST /api/admin/donations/${donation.id}/reject`] = act(donation.id, {
      ...donation,
      status: 'rejected',
    });
    handlers[`POST /api/admin/donations/${donation.id}/results`] = act(donation.id, {
      status: 'released',
      unit_ids: [300 + donation.id],
      corrected_bloodgroup: null,
      deferral: null,
      lookback_unit_ids: [],
    });
  }
  mockApi(handlers);
  return renderScreen(<DonationsScreen />);
}

type User = ReturnType<typeof renderScreen>['user'];

async function recordCollection(user: User, id: number) {
  await user.click(
    await screen.findByRole('button', { name: new RegExp(`Record collection of donation #${id}`) }),
  );
  const dialog = await screen.findByRole('dialog', { name: `Record collection: donation #${id}` });
  await user.type(within(dialog).getByLabelText(/Haemoglobin/), '13.1');
  await user.type(within(dialog).getByLabelText(/Weight/), '68');
  await user.type(within(dialog).getByLabelText(/systolic/), '120');
  await user.type(within(dialog).getByLabelText(/diastolic/), '80');
  await user.type(within(dialog).getByLabelText(/Pulse/), '72');
  await user.click(within(dialog).getByRole('button', { name: 'Record collection' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await settle();
}

async function recordResults(user: User, id: number) {
  await user.click(
    await screen.findByRole('button', { name: new RegExp(`Record test results of donation #${id}`) }),
  );
  const dialog = await screen.findByRole('dialog', { name: `Record test results: donation #${id}` });
  for (const test of ['HIV', 'Hepatitis B', 'Hepatitis C', 'Syphilis']) {
    const group = within(dialog).getByRole('radiogroup', { name: new RegExp(`^${test}`) });
    await user.click(within(group).getByRole('radio', { name: 'Negative' }));
  }
  await user.click(within(dialog).getByRole('button', { name: 'Record results' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await settle();
}

async function reject(user: User, id: number) {
  await user.click(await screen.findByRole('button', { name: new RegExp(`Reject donation #${id}`) }));
  const dialog = await screen.findByRole('dialog', { name: `Reject donation #${id}` });
  await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await settle();
}

const heading = (name: string) => screen.getByRole('heading', { level: 2, name });

describe('Manage Donations: where focus goes after an action takes its button away', () => {
  it("Record collection: the next booking's Record collection, then the section's heading", async () => {
    const { user } = renderLists([first, second], []);
    await recordCollection(user, 52);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Record collection of donation #53/ })).toHaveFocus(),
    );
    await recordCollection(user, 53);
    await waitFor(() => expect(heading('Bookings due today')).toHaveFocus());
  });

  it("Record test results: the next donation's Record test results, then the section's heading", async () => {
    const { user } = renderLists([], [collected(first), collected(second)]);
    await recordResults(user, 52);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Record test results of donation #53/ })).toHaveFocus(),
    );
    await recordResults(user, 53);
    await waitFor(() => expect(heading('Awaiting test results')).toHaveFocus());
  });

  it("Reject: the next booking's Reject, then the section's heading", async () => {
    const { user } = renderLists([first, second], []);
    await reject(user, 52);
    await waitFor(() => expect(screen.getByRole('button', { name: /Reject donation #53/ })).toHaveFocus());
    await reject(user, 53);
    await waitFor(() => expect(heading('Bookings due today')).toHaveFocus());
  });
});
