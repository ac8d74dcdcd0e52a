import { afterEach, describe, expect, it } from 'vitest';
import { todayIn } from '@bloodbank/shared/dates';
import { getBankContact } from './bank-contact';
import { bankToday, forgetBankTimeZone, setBankTimeZone } from './bank-today';
import { jsonResponse, mockApi, TEST_BANK_CONTACT } from '@/test/mock-api';

// Noon in London is already the next day on Kiritimati (UTC+14) and still the same day in Hawaii.
const NOON_UTC = new Date('2026-11-28T12:00:00Z');

describe("bankToday: the bank's calendar day, not the browser's", () => {
  afterEach(forgetBankTimeZone);

  it("is the browser's day until the server has said the bank's zone", () => {
    expect(bankToday(NOON_UTC)).toBe(todayIn(undefined, NOON_UTC));
  });

  it("follows the zone of the bank's public details once they arrive", async () => {
    mockApi({
      'GET /api/public/contact': () =>
        jsonResponse(200, { ...TEST_BANK_CONTACT, time_zone: 'Pacific/Kiritimati' }),
    });
    await getBankContact();
    expect(bankToday(NOON_UTC)).toBe('2026-11-29');
    setBankTimeZone('Pacific/Honolulu');
    expect(bankToday(new Date('2026-11-29T05:00:00Z'))).toBe('2026-11-28');
  });

  it('keeps the day it has for a zone this browser does not know, rather than break every date field', () => {
    setBankTimeZone('Pacific/Kiritimati');
    setBankTimeZone('Mars/Olympus_Mons');
    expect(bankToday(NOON_UTC)).toBe('2026-11-29');
  });
});
