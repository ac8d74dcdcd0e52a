import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './2026-11-20-0001-initial-schema';
import * as stockCountersAndVersions from './2026-11-21-0001-performance';
import * as changeWatch from './2026-11-21-0002-change-watch';
import * as dropSupersededIndexes from './2026-11-21-0003-drop-superseded-indexes';
import * as changeCountersEverywhere from './2026-11-25-0001-change-counters-everywhere';
import * as donationLifecycle from './2026-11-25-0002-donation-lifecycle';
import * as bloodComponents from './2026-11-25-0003-blood-components';
import * as sitesAndAppointments from './2026-11-25-0004-sites-and-appointments';
import * as notifications from './2026-11-25-0005-notifications';
import * as slotPlacesByStatus from './2026-11-26-0001-slot-places-by-status';
import * as countChangesOncePerTransaction from './2026-11-26-0002-count-changes-once-per-transaction';
import * as bookingsInTimeOrder from './2026-11-28-0001-bookings-in-time-order';
import * as forgetSentMessages from './2026-11-28-0002-forget-sent-messages';
import * as requestsByNeededDate from './2026-11-28-0003-requests-by-needed-date';
import * as reminderPerBooking from './2026-11-28-0004-reminder-per-booking';

/**
 * Migrations are listed here rather than read from disk so they survive bundling.
 * Names sort by date; add new ones at the end.
 */
const migrations: Record<string, Migration> = {
  '2026-11-20-0001-initial-schema': initialSchema,
  '2026-11-21-0001-performance': stockCountersAndVersions,
  '2026-11-21-0002-change-watch': changeWatch,
  '2026-11-21-0003-drop-superseded-indexes': dropSupersededIndexes,
  '2026-11-25-0001-change-counters-everywhere': changeCountersEverywhere,
  '2026-11-25-0002-donation-lifecycle': donationLifecycle,
  '2026-11-25-0003-blood-components': bloodComponents,
  '2026-11-25-0004-sites-and-appointments': sitesAndAppointments,
  '2026-11-25-0005-notifications': notifications,
  '2026-11-26-0001-slot-places-by-status': slotPlacesByStatus,
  '2026-11-26-0002-count-changes-once-per-transaction': countChangesOncePerTransaction,
  '2026-11-28-0001-bookings-in-time-order': bookingsInTimeOrder,
  '2026-11-28-0002-forget-sent-messages': forgetSentMessages,
  '2026-11-28-0003-requests-by-needed-date': requestsByNeededDate,
  '2026-11-28-0004-reminder-per-booking': reminderPerBooking,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
