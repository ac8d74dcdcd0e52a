import { todayIn } from '@bloodbank/shared/dates';

/**
 * "Today" is the blood bank's calendar day (TIMEZONE on the server), not the browser's: a donor
 * abroad, or a laptop set to UTC, would otherwise be offered a day the server calls past, or be
 * refused the bank's today. The zone comes with the bank's public details (GET /api/public/contact,
 * asked by the footer of every page); until then, and for a zone this browser does not know, the
 * browser's own day stands in.
 */
let bankTimeZone: string | undefined;

export function setBankTimeZone(timeZone: string | undefined): void {
  if (timeZone === undefined) return;
  try {
    todayIn(timeZone);
    bankTimeZone = timeZone;
  } catch {
    // An unknown zone (RangeError): keep the browser's day rather than break every date field.
  }
}

/** The bank's time zone once known, else undefined (the browser's zone stands in). */
export function knownBankTimeZone(): string | undefined {
  return bankTimeZone;
}

/** Today's date in the bank's time zone, `YYYY-MM-DD`. */
export function bankToday(now: Date = new Date()): string {
  return todayIn(bankTimeZone, now);
}

/** Tests only: back to the browser's day. */
export function forgetBankTimeZone(): void {
  bankTimeZone = undefined;
}
