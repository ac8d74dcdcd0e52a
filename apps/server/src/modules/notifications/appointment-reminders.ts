import { addDays } from '@bloodbank/shared/dates';
import type { AppContext } from '../../context';
import { findDonationsWithSite } from '../donations/donations.repository';
import { bookingPlace, messages } from './messages';
import { notify } from './notify';

/**
 * The reminder the day before an appointment (PRODUCT.md 3.8), for every pending booking of
 * tomorrow not yet reminded for that day: one made, or moved to tomorrow, after the morning's run
 * gets its reminder at the next turn of the daily work (every 15 minutes), not never. A booking is
 * marked with the day it was reminded for in the same conditional update that picks it, so
 * instances running this at once remind each booking once; a move to another day makes it due again.
 * Answers how many were sent.
 */
export async function sendAppointmentReminders(ctx: AppContext, today = ctx.clock.today()): Promise<number> {
  const at = ctx.clock.now().toISOString();
  const tomorrow = addDays(today, 1);
  return ctx.writes.run(async (trx) => {
    const due = await trx
      .updateTable('donations')
      .set((eb) => ({ reminded_for: eb.ref('donation_date') }))
      .where('status', '=', 'pending')
      .where('donation_date', '=', tomorrow)
      .where((eb) => eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '!=', tomorrow)]))
      .returning('id')
      .execute();
    const bookings = await findDonationsWithSite(trx, due.map((booking) => booking.id));
    for (const booking of bookings) {
      await notify(ctx, trx, booking.donor_id, messages.appointmentReminder(booking.donation_date, bookingPlace(booking)), at);
    }
    return due.length;
  });
}
