import { describe, expect, it } from 'vitest';
import { addMonths, isValidIsoDate } from '@bloodbank/shared/dates';

// The shared package has no test project of its own; its date rules are checked here.
describe('isValidIsoDate', () => {
  /** The definition it replaced: a Date round trip. */
  const byDate = (value: string) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  };

  it('agrees with the calendar on every day number of every month, leap years included', () => {
    const pad = (value: number, width: number) => String(value).padStart(width, '0');
    for (const year of [1900, 1999, 2000, 2023, 2024, 2026, 2100, 2400]) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect(isValidIsoDate(text), text).toBe(byDate(text));
        }
      }
    }
  });

  it('refuses anything but YYYY-MM-DD', () => {
    for (const text of ['2026-2-01', '2026-02-1', '20260201', '2026-02-01T00:00', ' 2026-02-01', '']) {
      expect(isValidIsoDate(text), text).toBe(false);
    }
    expect(isValidIsoDate('2024-02-29')).toBe(true);
    expect(isValidIsoDate('2026-02-29')).toBe(false);
  });
});

describe('addMonths (the lookback window of PRODUCT.md 3.2: the previous 12 months)', () => {
  it('keeps the day of the month, or takes the last day of a shorter month', () => {
    expect(addMonths('2025-03-10', -12)).toBe('2024-03-10');
    // Across a leap day: 366 days back, where a 365-day window would stop a day short.
    expect(addMonths('2024-03-10', -12)).toBe('2023-03-10');
    expect(addMonths('2024-02-29', -12)).toBe('2023-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2026-01-15', -13)).toBe('2024-12-15');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
  });
});
