import { describe, expect, it } from 'vitest';
import { bankTimeWriter } from './calendar';

describe("bankTimeWriter: a stored instant in the bank's wall-clock time", () => {
  it('writes the bank’s day and hour with its offset, to the second', () => {
    expect(bankTimeWriter('Asia/Kolkata')('2026-12-07T18:36:40.123Z')).toBe('2026-12-08T00:06:40+05:30');
    expect(bankTimeWriter('UTC')('2026-12-07T18:36:40.123Z')).toBe('2026-12-07T18:36:40+00:00');
    expect(bankTimeWriter('Asia/Kathmandu')('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T05:45:00+05:45');
    expect(bankTimeWriter('America/St_Johns')('2026-01-01T12:00:00.000Z')).toBe('2026-01-01T08:30:00-03:30');
  });

  it('gives each instant its own offset on the day the clocks change', () => {
    const newYork = bankTimeWriter('America/New_York');
    // 8 March 2026: 02:00 EST becomes 03:00 EDT, at 07:00 UTC.
    expect(newYork('2026-03-08T06:59:59.000Z')).toBe('2026-03-08T01:59:59-05:00');
    expect(newYork('2026-03-08T07:00:00.000Z')).toBe('2026-03-08T03:00:00-04:00');
    expect(newYork('2026-03-08T23:00:00.000Z')).toBe('2026-03-08T19:00:00-04:00');
    // The days around it, each asked once for the whole day.
    expect(newYork('2026-03-07T12:00:00.000Z')).toBe('2026-03-07T07:00:00-05:00');
    expect(newYork('2026-03-09T12:00:00.000Z')).toBe('2026-03-09T08:00:00-04:00');
    // 1 November 2026: 02:00 EDT becomes 01:00 EST, at 06:00 UTC; 01:30 happens twice.
    expect(newYork('2026-11-01T05:30:00.000Z')).toBe('2026-11-01T01:30:00-04:00');
    expect(newYork('2026-11-01T06:30:00.000Z')).toBe('2026-11-01T01:30:00-05:00');
  });

  it('leaves an empty cell empty', () => {
    expect(bankTimeWriter('Asia/Kolkata')(null)).toBeNull();
  });
});
