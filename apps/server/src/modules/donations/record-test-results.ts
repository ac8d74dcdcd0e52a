import { addDays, addMonths } from '@bloodbank/shared/dates';
import {
  INFECTION_TEST_LABELS,
  INFECTION_TESTS,
  type TestResultsInput,
  type TestResultsOutcome,
} from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { calloutWhereStockIsLow } from '../callouts/send-callout';
import { redCellGroupsOf } from '../inventory/inventory.repository';
import { bookingPlace, messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { recordDeferral } from '../deferrals/record-deferral';
import {
  discardUnitsOfDonation,
  holdUnitsForLookback,
  relabelUnitsInTesting,
  releaseUnitsInTesting,
} from '../inventory/inventory.repository';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages, recordDonationActivity } from './donation-activity';
import { findDonationInState, movedMeanwhile } from './donation-decisions';
import { correctDonorBloodGroup, findDonationWithSite, findDonor, insertTestResults, lockDonor, moveDonation } from './donations.repository';

/** PRODUCT.md 3.2: what a reactive result does. */
export const REACTIVE_DISCARD_REASON = 'Reactive screening test';
/** A reactive syphilis test alone defers for a year; HIV, HBV or HCV for good. */
export const SYPHILIS_DEFERRAL_DAYS = 365;
/** Lookback: the donor's units collected in the previous 12 months (calendar months: a leap year's 366 days too). */
export const LOOKBACK_MONTHS = 12;
const PERMANENT_MARKERS = ['hiv', 'hbv', 'hcv'] as const;

/**
 * POST /admin/donations/:id/results (PRODUCT.md 3.2), once per collected donation. All negative:
 * released, its units become stock. Any reactive: discarded with its units, the donor deferred, and
 * the donor's other units of the last 12 months put on a lookback hold. The confirmed group corrects
 * the donor's record either way. The donor learns only "released" or the follow-up text; the game
 * never changes (PRODUCT.md 3.4).
 */
export async function recordTestResults(
  ctx: AppContext,
  admin: Principal,
  donationId: number,
  input: TestResultsInput,
): Promise<TestResultsOutcome> {
  const donation = await findDonationInState(ctx, donationId, 'collected');
  const reactive = INFECTION_TESTS.filter((test) => input[test] === 'reactive');
  const today = ctx.clock.today();
  const at = ctx.clock.now().toISOString();

  return ctx.writes.run(async (trx) => {
    // The donor's row first, then the donations (lockDonor's order): a reactive result defers the
    // donor and cancels a booking they hold, and either result changes the donor's units, which
    // processing and hold releases decide on under the same lock (inventory/lock-unit-donor.ts).
    await lockDonor(trx, donation.donor_id, ctx.engine);
    const moved = await moveDonation(trx, donationId, 'collected', {
      status: reactive.length ? 'discarded' : 'released',
      bloodgroup: input.bloodgroup,
      outcome_reason: reactive.length ? `Reactive: ${reactive.map((test) => INFECTION_TEST_LABELS[test]).join(', ')}.` : null,
    });
    if (!moved) throw movedMeanwhile('collected');
    await insertTestResults(trx, {
      donation_id: donationId,
      hiv: input.hiv,
      hbv: input.hbv,
      hcv: input.hcv,
      syphilis: input.syphilis,
      bloodgroup: input.bloodgroup,
      recorded_by: admin.id,
      recorded_at: at,
    });
    // The day the blood was given, as the collection's own message named it (collect-donation.ts).
    const givenOn = moved.collected_on ?? moved.donation_date;
    const feedDonation = { date: givenOn, units: moved.units };

    // The laboratory's ABO/Rh group is the truth: the units and the donor's record follow it.
    await relabelUnitsInTesting(trx, donationId, input.bloodgroup);
    const donor = await findDonor(trx, moved.donor_id);
    const corrected = donor && donor.bloodgroup !== input.bloodgroup ? input.bloodgroup : null;
    if (corrected) {
      await correctDonorBloodGroup(trx, moved.donor_id, corrected, at);
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: 'donor.bloodgroup_corrected',
        entity: 'user',
        entityId: moved.donor_id,
        before: { bloodgroup: donor?.bloodgroup ?? null },
        after: { bloodgroup: corrected, donation_id: donationId },
        at,
      });
    }

    if (reactive.length === 0) {
      // Told with the release (PRODUCT.md 3.2). After a reactive test the donor hears only the
      // follow-up text: staff speak of the group at the follow-up.
      if (corrected) {
        await recordDonationActivity(
          trx,
          moved.donor_id,
          DONATION_ACTIVITY_KINDS.bloodGroupCorrected,
          donationActivityMessages.bloodGroupCorrected(corrected),
          at,
        );
        await notify(ctx, trx, moved.donor_id, messages.bloodGroupCorrected(donor?.bloodgroup ?? null, corrected), at);
      }
      const unitIds = await releaseUnitsInTesting(trx, donationId);
      await recordDonationActivity(
        trx,
        moved.donor_id,
        DONATION_ACTIVITY_KINDS.released,
        donationActivityMessages.released(feedDonation),
        at,
      );
      await notify(ctx, trx, moved.donor_id, messages.donationReleased(givenOn), at);
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: 'donation.released',
        entity: 'donation',
        entityId: donationId,
        before: { status: 'collected' },
        after: { status: 'released', unit_ids: unitIds },
        at,
      });
      return { status: 'released', unit_ids: unitIds, corrected_bloodgroup: corrected, deferral: null, lookback_unit_ids: [] };
    }

    const unitIds = await discardUnitsOfDonation(trx, donationId, { reason: REACTIVE_DISCARD_REASON, at });
    const permanent = reactive.some((test) => (PERMANENT_MARKERS as readonly string[]).includes(test));
    const deferral = await recordDeferral(
      ctx,
      trx,
      admin,
      {
        donorId: moved.donor_id,
        type: permanent ? 'permanent' : 'temporary',
        until: permanent ? null : addDays(today, SYPHILIS_DEFERRAL_DAYS),
        reason: moved.outcome_reason ?? 'Reactive test result.',
        source: 'test',
        donationId,
      },
      { at, today },
    );
    const lookbackUnitIds = await holdUnitsForLookback(trx, {
      donorId: moved.donor_id,
      exceptDonationId: donationId,
      since: addMonths(today, -LOOKBACK_MONTHS),
    });
    // Held units leave the shelf: the group may now be short (PRODUCT.md 3.8).
    await calloutWhereStockIsLow(ctx, trx, await redCellGroupsOf(trx, lookbackUnitIds), at);
    await recordDonationActivity(trx, moved.donor_id, DONATION_ACTIVITY_KINDS.followUp, donationActivityMessages.followUp(), at);
    await notify(ctx, trx, moved.donor_id, messages.donationFollowUp(), at);
    if (deferral.cancelled_booking) {
      const booking = await findDonationWithSite(trx, deferral.cancelled_booking.id);
      const place = booking ? bookingPlace(booking) : null;
      await notify(ctx, trx, moved.donor_id, messages.bookingCancelledFollowUp(deferral.cancelled_booking.date, place), at);
    }
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.discarded',
      entity: 'donation',
      entityId: donationId,
      before: { status: 'collected' },
      after: { status: 'discarded', reactive, unit_ids: unitIds, deferral_id: deferral.id, lookback_unit_ids: lookbackUnitIds },
      at,
    });
    return {
      status: 'discarded',
      unit_ids: unitIds,
      corrected_bloodgroup: corrected,
      deferral,
      lookback_unit_ids: lookbackUnitIds,
    };
  });
}
