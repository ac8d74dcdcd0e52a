import { describe, expect, it } from 'vitest';
import { formatDate, formatShortDate, readableDates } from './format';

describe('readableDates', () => {
  it("writes the API's YYYY-MM-DD dates in a message as the screens write dates", () => {
    expect(readableDates('You are deferred from donating until 2027-01-15.')).toBe(
      'You are deferred from donating until 15 Jan 2027.',
    );
    expect(readableDates('Please enter a date between 1900-01-01 and 2100-12-31')).toBe(
      'Please enter a date between 1 Jan 1900 and 31 Dec 2100',
    );
  });

  it('leaves text without a calendar date, and numbers that are not one, as they are', () => {
    expect(readableDates('You already have a donation awaiting approval.')).toBe(
      'You already have a donation awaiting approval.',
    );
    expect(readableDates('Reference 12345-67-890 and the format YYYY-MM-DD')).toBe(
      'Reference 12345-67-890 and the format YYYY-MM-DD',
    );
    // Not a real date: kept as written, never rolled on to 2 Mar.
    expect(readableDates('No such day as 2026-02-30.')).toBe('No such day as 2026-02-30.');
  });
});

describe('formatDate and formatShortDate', () => {
  it("write September in three letters, as the server's messages do, whatever the ICU data says", () => {
    expect(formatDate('2026-09-03')).toBe('3 Sep 2026');
    expect(formatShortDate('2026-09-30')).toBe('30 Sep');
    expect(formatDate('2026-11-24')).toBe('24 Nov 2026');
  });
});
