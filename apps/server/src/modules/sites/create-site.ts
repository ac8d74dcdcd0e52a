import type { Site, SiteInput } from '@bloodbank/shared/sites';
import type { AppContext } from '../../context';
import type { Principal } from '../../plugins/access';
import { recordAudit } from '../audit/audit.repository';
import { refuseTakenSiteName } from './site-names';
import { insertSite } from './sites.repository';
import { toSite } from './sites.service';

/** POST /admin/sites: a new donation site (PRODUCT.md 3.6) with a name no other site has (409), audited. */
export async function createSite(ctx: AppContext, admin: Principal, input: SiteInput): Promise<Site> {
  const at = ctx.clock.now().toISOString();
  return ctx.writes.run(async (trx) => {
    await refuseTakenSiteName(trx, ctx.engine, input.name);
    const row = await insertSite(trx, {
      name: input.name,
      address: input.address,
      active: input.active ? 1 : 0,
      hours: JSON.stringify(input.hours),
      slot_minutes: input.slot_minutes,
      capacity: input.capacity,
      closed_dates: JSON.stringify(input.closed_dates),
      created_at: at,
      updated_at: at,
    });
    const site = toSite(row);
    await recordAudit(trx, {
      actorId: admin.id,
      actor: admin.username,
      action: 'site.created',
      entity: 'site',
      entityId: site.id,
      after: site,
      at,
    });
    return site;
  });
}
