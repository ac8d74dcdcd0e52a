import { describe, expect, it } from 'vitest';
import { sameHoursEveryDay, type Slot } from '@bloodbank/shared/sites';
import { donationForm } from '../../../test/donation-helpers';
import { createAdmin, createDonor } from '../../../test/factories';
import { createTestApp } from '../../../test/test-app';
import { localTimeExists } from './opening-hours';

/**
 * A site open through the night the clocks go forward (a bank in New York; 8 Mar 2026, 02:00 becomes
 * 03:00): the hour that does not exist is neither offered nor booked, so no two slot times name the
 * same instant. Every other day, and every day in a zone without daylight-saving time, is as before.
 */
describe('slots on the night daylight-saving time begins', () => {
  it("knows which times the bank's clocks show", () => {
    expect(localTimeExists('2026-03-08', '02:30', 'America/New_York')).toBe(false);
    expect(localTimeExists('2026-03-08', '01:45', 'America/New_York')).toBe(true);
    expect(localTimeExists('2026-03-08', '03:00', 'America/New_York')).toBe(true);
    expect(localTimeExists('2026-03-09', '02:30', 'America/New_York')).toBe(true);
    // The night they go back: 01:30 happens twice, and is a time the clocks show.
    expect(localTimeExists('2026-11-01', '01:30', 'America/New_York')).toBe(true);
    expect(localTimeExists('2026-03-08', '02:30', 'Asia/Kolkata')).toBe(true);
  });

  it('offers no slot in the skipped hour and refuses to book one there', async () => {
    const t = await createTestApp({ now: '2026-03-07T15:00:00Z', env: { TIMEZONE: 'America/New_York' } });
    try {
      const admin = await createAdmin(t);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/sites',
        headers: admin.headers,
        payload: {
          name: 'Night Drive',
          address: '1 Main Street',
          hours: sameHoursEveryDay({ open: '00:00', close: '04:00' }),
          slot_minutes: 30,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const siteId = created.json<{ id: number }>().id;
      const donor = await createDonor(t);
      const slots = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${siteId}/slots?date=2026-03-08`,
        headers: donor.headers,
      });
      expect(slots.json<Slot[]>().map((slot) => slot.time)).toEqual([
        '00:00',
        '00:30',
        '01:00',
        '01:30',
        '03:00',
        '03:30',
      ]);

      const skipped = await t.app.inject({
        method: 'POST',
        url: '/api/donations',
        headers: donor.headers,
        payload: donationForm('2026-03-08', { site_id: siteId, slot: '02:30' }),
      });
      expect(skipped.statusCode).toBe(422);
      expect(skipped.json().errors).toHaveProperty('slot');
      const next = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${siteId}/slots?date=2026-03-09`,
        headers: donor.headers,
      });
      expect(next.json<Slot[]>()).toHaveLength(8);
    } finally {
      await t.close();
    }
  });
});
