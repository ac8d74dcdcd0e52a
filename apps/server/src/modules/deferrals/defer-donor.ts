import type { NewDeferralInput, NewDeferralResult } from '@bloodbank/shared/donation-lifecycle';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import type { Principal } from '../../plugins/access';
import { lockDonor } from '../donations/donations.repository';
import { recordDeferral } from './record-deferral';

/** POST /admin/donors/:id/deferrals: staff defer a donor by hand, until a date or permanently (PRODUCT.md 3.7). */
export async function deferDonor(
  ctx: AppContext,
  admin: Principal,
  donorId: number,
  input: NewDeferralInput,
): Promise<NewDeferralResult> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    if (!(await lockDonor(trx, donorId, ctx.engine))) throw notFound('Donor not found');
    return recordDeferral(
      ctx,
      trx,
      admin,
      {
        donorId,
        type: input.type,
        until: input.type === 'temporary' ? input.until : null,
        reason: input.reason,
        source: 'manual',
        donationId: null,
      },
      { at, today: ctx.clock.today() },
    );
  });
}
