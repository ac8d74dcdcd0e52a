import { useSyncExternalStore } from 'react';
import { todayIn } from '@bloodbank/shared/dates';

/**
 * "Today" is the blood bank's calendar day (TIMEZONE on the server), not the browser's: a donor
 * abroad, or a laptop set to UTC, would otherwise be offered a day the server calls past, or be
 * refused the bank's today. The zone comes with the bank's public details (GET /api/public/contact,
 * asked by the footer of every page); until then, and for a zone this browser does not know, the
 * browser's own day stands in.
 */
let bankTimeZone: string | undefined;
/** The components showing today (useBankToday), to render again once the zone is known. */
const zoneListeners = new Set<() => void>();

export function setBankTimeZone(timeZone: string | undefined): void {
  if (timeZone === undefined || timeZone === bankTimeZone) return;
  try {
    todayIn(timeZone);
  } catch {
    // An unknown zone (RangeError): keep the browser's day rather than break every date field.
    return;
  }
  bankTimeZone = timeZone;
  for (const listener of zoneListeners) listener();
}

function onZoneChange(listener: () => void): () => void {
  zoneListeners.add(listener);
  return () => zoneListeners.delete(listener);
}

/**
 * Today in the bank's time zone, for a component that shows it or decides by it: the component
 * renders again when the zone arrives. A screen drawn before it (a slow network, a browser in
 * another zone) otherwise kept the browser's day: "You can donate again from 16 Dec" on the bank's
 * 16 Dec, with no way to book.
 */
export function useBankToday(): string {
  const zone = useSyncExternalStore(onZoneChange, knownBankTimeZone);
  return todayIn(zone);
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
  for (const listener of zoneListeners) listener();
}
