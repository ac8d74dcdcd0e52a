import { describe, expect, it } from 'vitest';
import type { PublicSite } from '@bloodbank/shared/sites';
import { noTimesText } from './appointment-fields';

const weekday = { open: '08:00', close: '16:00' };
const SITE: PublicSite = {
  id: 1,
  name: 'Town Hall',
  address: '1 Main Street',
  hours: {
    monday: null,
    tuesday: weekday,
    wednesday: weekday,
    thursday: weekday,
    friday: weekday,
    saturday: weekday,
    sunday: weekday,
  },
  slot_minutes: 15,
  closed_dates: ['2026-12-25'],
};

/** The bank's today in these examples: a Tuesday. */
const TODAY = '2026-12-08';

describe('noTimesText: why a date offers no time', () => {
  it('says the site is closed on a closed date, and on a weekday it does not open, rather than full', () => {
    expect(noTimesText(SITE, '2026-12-25', [], TODAY)).toBe(
      'Town Hall is closed on 25 Dec 2026. Please choose another date or site.',
    );
    // 30 Nov 2026 is a Monday.
    expect(noTimesText(SITE, '2026-11-30', [], TODAY)).toBe(
      'Town Hall is closed on Mondays. Please choose another date or site.',
    );
  });

  it("says when today's times have all begun, when a day has no times, and when every place is taken", () => {
    expect(noTimesText(SITE, TODAY, [], TODAY)).toBe(
      'No more times today at Town Hall. Please choose another date or site.',
    );
    expect(noTimesText(SITE, '2026-12-01', [], TODAY)).toBe(
      'Town Hall has no times on 1 Dec 2026. Please choose another date or site.',
    );
    expect(noTimesText(SITE, '2026-12-01', [{ time: '09:00', available: 0 }], TODAY)).toBe(
      'No free times at this site on this date. Please choose another date or site.',
    );
  });
});
