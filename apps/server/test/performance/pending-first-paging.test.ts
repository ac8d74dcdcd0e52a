import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDonation, insertRequest } from '../admin-fixtures';
import { createAdmin, createDonor, createPatient, type TestUser } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/**
 * The admin lists without a status filter show pending rows first, then the newest. They are read
 * as two runs in index order (pendingFirstPage in src/decisions.ts, for speed at scale): every page, and the
 * page where the pending rows end in particular, must hold exactly the rows a full sort would.
 */
let t: TestApp;
let admin: TestUser;
let patients: TestUser[];
let donors: TestUser[];

const day = (n: number) => `2026-05-${String(n).padStart(2, '0')}T09:00:00.000Z`;

beforeAll(async () => {
  t = await createTestApp({ now: '2026-06-01T10:00:00.000Z' });
  admin = await createAdmin(t);
  patients = [await createPatient(t), await createPatient(t)];
  donors = [await createDonor(t), await createDonor(t), await createDonor(t), await createDonor(t)];
  // Created out of order, statuses mixed; two rows share a creation instant (the id breaks the tie).
  // Needed-by dates in another order again; two pending ones are needed the same day.
  const requestRows: [number, 'pending' | 'approved' | 'rejected' | 'cancelled', string, string][] = [
    [0, 'approved', day(3), '2026-04-01'],
    [1, 'pending', day(10), '2026-03-25'],
    [0, 'rejected', day(12), '2026-03-22'],
    [0, 'pending', day(2), '2026-04-02'],
    [1, 'cancelled', day(7), '2026-03-21'],
    [1, 'pending', day(7), '2026-03-25'],
    [0, 'pending', day(1), '2026-03-21'],
    [0, 'approved', day(20), '2026-03-30'],
  ];
  for (const [patient, status, created_at, required_date] of requestRows) {
    await insertRequest(t, patients[patient]!.id, { status, created_at, required_date });
  }
  // At most one pending donation per donor.
  const donationRows: [number, 'pending' | 'released' | 'rejected', string][] = [
    [0, 'released', day(4)],
    [0, 'pending', day(9)],
    [1, 'pending', day(1)],
    [1, 'rejected', day(15)],
    [2, 'released', day(9)],
    [3, 'pending', day(11)],
  ];
  for (const [donor, status, created_at] of donationRows) {
    await insertDonation(t, donors[donor]!.id, { status, created_at });
  }
});
afterAll(() => t.close());

interface Row {
  id: number;
  status: string;
  created_at: string;
  /** The booked date (donations), the day the blood is needed (requests); a donation's collection day. */
  date?: string;
  collected_on?: string | null;
}

/**
 * What a full sort gives. Requests: pending first, needed soonest first (ties: the first to come),
 * then the rest newest first, ties by id, newest first.
 * Donations (what awaits staff first): bookings by date, then those awaiting results by collection
 * day, then the rest newest first.
 */
const expectedOrder = (rows: Row[], list: 'requests' | 'donations') => {
  const run = (row: Row) =>
    list === 'requests' ? (row.status === 'pending' ? 0 : 2) : row.status === 'pending' ? 0 : row.status === 'collected' ? 1 : 2;
  return [...rows]
    .sort((a, b) => {
      if (run(a) !== run(b)) return run(a) - run(b);
      if (run(a) === 0) return (a.date ?? '').localeCompare(b.date ?? '') || a.id - b.id;
      if (run(a) === 1) return (a.collected_on ?? '').localeCompare(b.collected_on ?? '') || a.id - b.id;
      return b.created_at.localeCompare(a.created_at) || b.id - a.id;
    })
    .map((row) => row.id);
};

async function allPages(list: string, filter: string, pageSize: number) {
  const ids: number[] = [];
  let total = 0;
  for (let page = 1; page < 20; page++) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/${list}?page=${page}&pageSize=${pageSize}${filter}`,
      headers: admin.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ items: Row[]; total: number }>();
    total = body.total;
    if (body.items.length === 0) break;
    expect(body.items.length).toBeLessThanOrEqual(pageSize);
    ids.push(...body.items.map((item) => item.id));
  }
  return { ids, total };
}

describe.each([
  ['requests', 'patient_id'],
  ['donations', 'donor_id'],
] as const)('GET /api/admin/%s without a status filter', (list, personField) => {
  it.each([1, 2, 3, 4, 20])(
    'pages of %i hold exactly the rows of the full pending-first order',
    async (pageSize) => {
      const everything = await t.app.inject({
        method: 'GET',
        url: `/api/admin/${list}?pageSize=100`,
        headers: admin.headers,
      });
      const rows = everything.json<{ items: Row[] }>().items;
      expect(rows.map((row) => row.id)).toEqual(expectedOrder(rows, list));
      const { ids, total } = await allPages(list, '', pageSize);
      expect(ids).toEqual(expectedOrder(rows, list));
      expect(total).toBe(rows.length);
    },
  );

  it("keeps the order within one person's rows", async () => {
    const person = list === 'requests' ? patients[1]! : donors[1]!;
    const everything = await t.app.inject({
      method: 'GET',
      url: `/api/admin/${list}?pageSize=100&${personField}=${person.id}`,
      headers: admin.headers,
    });
    const rows = everything.json<{ items: Row[] }>().items;
    expect(rows.length).toBeGreaterThan(1);
    const { ids, total } = await allPages(list, `&${personField}=${person.id}`, 1);
    expect(ids).toEqual(expectedOrder(rows, list));
    expect(total).toBe(rows.length);
  });
});
