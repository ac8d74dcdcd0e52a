import { POINTS_PER_DONATION } from '@bloodbank/shared/constants';
import { addDays } from '@bloodbank/shared/dates';
import {
  failedScreeningReasons,
  type CollectionInput,
  type CollectionResult,
} from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import { conflict } from '../../errors';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { messages } from '../notifications/messages';
import { notify } from '../notifications/notify';
import { recordDeferral } from '../deferrals/record-deferral';
import { creditCollectedDonation } from '../game/credit-collection';
import { insertUnits } from '../inventory/inventory.repository';
import { expiryDateOf } from '../inventory/receive-units';
import { DONATION_ACTIVITY_KINDS, donationActivityMessages, recordDonationActivity } from './donation-activity';
import { bookingChangedMeanwhile, DONATION_DECISION_MESSAGES, findDonationInState } from './donation-decisions';
import { insertScreening, lockDonor, moveDonation } from './donations.repository';

/**
 * POST /admin/donations/:id/collect (PRODUCT.md 3.2): staff screen the donor on or after the booked
 * day. A failed threshold defers the donation and the donor (SCREENING_DEFERRAL_DAYS), the reason
 * naming each failed measurement. Otherwise the blood is collected: one whole-blood unit per
 * donated unit, quarantined until its tests are in (record-test-results.ts), and Blood Hero credits
 * the donation (PRODUCT.md 3.4). The conditional update decides races: one 200, one 409.
 */
export async function collectDonation(
  ctx: AppContext,
  admin: Principal,
  donationId: number,
  input: CollectionInput,
): Promise<CollectionResult> {
  const donation = await findDonationInState(ctx, donationId, 'pending');
  const today = ctx.clock.today();
  if (donation.donation_date > today) {
    throw conflict(DONATION_DECISION_MESSAGES.donationNotYetDue(donation.donation_date), 'not_yet_due');
  }
  const reasons = failedScreeningReasons(input, ctx.config.screening);
  const passed = reasons.length === 0;
  const at = ctx.clock.now().toISOString();

  return ctx.writes.run(async (trx) => {
    // A failed screening defers the donor: their row first, then the donation (lockDonor's order).
    if (!passed) await lockDonor(trx, donation.donor_id, ctx.engine);
    const moved = await moveDonation(
      trx,
      donationId,
      'pending',
      {
        status: passed ? 'collected' : 'deferred',
        decided_by: admin.id,
        decided_at: at,
        collected_on: today,
        outcome_reason: passed ? null : reasons.join(' '),
      },
      { bookedOnOrBefore: today },
    );
    if (!moved) throw await bookingChangedMeanwhile(trx, donationId, 'collect', today);
    await insertScreening(trx, {
      donation_id: donationId,
      haemoglobin_g_dl: input.haemoglobin_g_dl,
      weight_kg: input.weight_kg,
      bp_systolic: input.bp_systolic,
      bp_diastolic: input.bp_diastolic,
      pulse: input.pulse,
      passed: passed ? 1 : 0,
      recorded_by: admin.id,
      recorded_at: at,
    });
    // Named by the day the donor gave blood (the day their next donation is counted from), which is
    // later than the booked day when they came late or staff recorded it the next day.
    const feedDonation = { date: today, units: moved.units };

    if (!passed) {
      const deferral = await recordDeferral(
        ctx,
        trx,
        admin,
        {
          donorId: moved.donor_id,
          type: 'temporary',
          until: addDays(today, ctx.config.screening.deferral_days),
          reason: reasons.join(' '),
          source: 'screening',
          donationId,
        },
        { at, today },
      );
      await recordAudit(trx, {
        actorId: admin.id,
        actor: admin.username,
        action: 'donation.deferred',
        entity: 'donation',
        entityId: donationId,
        before: { status: 'pending' },
        after: { status: 'deferred', reasons, deferral_id: deferral.id },
        at,
      });
      return { status: 'deferred', deferral, reasons };
    }

    const units = await insertUnits(trx, {
      bloodgroup: moved.bloodgroup,
      // A collection is whole blood (PRODUCT.md 3.3); staff may separate it (process-unit.ts).
      component: 'whole_blood',
      source: 'donation',
      donationId,
      collectedOn: today,
      expiresOn: expiryDateOf(today, ctx.config.shelfLifeDays.whole_blood),
      count: moved.units,
      at,
      holdReason: 'testing',
    });
    const unitIds = units.map((unit) => unit.id);
    await recordDonationActivity(
      trx,
      moved.donor_id,
      DONATION_ACTIVITY_KINDS.collected,
      donationActivityMessages.collected(feedDonation, POINTS_PER_DONATION),
      at,
    );
    const game = await creditCollectedDonation(trx, { id: donationId, donorId: moved.donor_id }, at);
    // What the game credited, achievements included, so the message and the game agree.
    const credited = POINTS_PER_DONATION + game.earned.reduce((sum, earned) => sum + earned.achievement.points_reward, 0);
    const earnedNames = game.earned.map((earned) => earned.achievement.name);
    await notify(ctx, trx, moved.donor_id, messages.collectionRecorded(today, credited, earnedNames), at);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'donation.collected',
      entity: 'donation',
      entityId: donationId,
      before: { status: 'pending' },
      after: {
        status: 'collected',
        unit_ids: unitIds,
        expires_on: units[0]?.expires_on ?? null,
        ...(game.profile ? { game: { points: game.profile.points, level: game.profile.level } } : {}),
        ...(earnedNames.length ? { achievements_earned: earnedNames } : {}),
      },
      at,
    });
    return { status: 'collected', unit_ids: unitIds };
  });
}
