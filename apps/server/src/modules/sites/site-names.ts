import { SITE_MESSAGES } from '@bloodbank/shared/sites';
import type { Transaction } from 'kysely';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/types';
import { conflict } from '../../errors';
import { listSiteNames, lockSiteName } from './sites.repository';

/**
 * One name per site (PRODUCT.md 3.6): "Kothrud Camp" and " kothrud  camp" would be two entries
 * with one name in the day-list picker and in the donor's booking list. Names are compared by their
 * key: case and surrounding or repeated spaces aside.
 *
 * Checked in the write transaction that saves the name, not by a unique index: the sites of a bank
 * are few and made by staff, rarely, so reading every name is cheap; the check runs in the same
 * transaction as the insert or update (SQLite and each instance's batches run one write
 * transaction at a time, and on PostgreSQL lockSiteName makes two instances take turns per name),
 * so two staff saving one name at once cannot both succeed. An index on a normalized name would need
 * a new column (SQLite's lower() folds ASCII only, and it has no regexp_replace to collapse spaces)
 * and a migration that fails on, or rewrites, the duplicates a database may already hold. Those stay
 * as they are: a site keeps its own name when saved (the form sends it every time), and only a
 * name another site does not have can be given.
 */
export const siteNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export const siteNameTaken = () =>
  conflict(SITE_MESSAGES.nameTaken, 'site_name_taken', { errors: { name: SITE_MESSAGES.nameTaken } });

/** 409 on `name` when a site other than `exceptSiteId` (active or not) has this name, case and spaces aside. */
export async function refuseTakenSiteName(
  trx: Transaction<DB>,
  engine: Engine,
  name: string,
  exceptSiteId?: number,
): Promise<void> {
  const key = siteNameKey(name);
  await lockSiteName(trx, key, engine);
  const sites = await listSiteNames(trx);
  if (sites.some((site) => site.id !== exceptSiteId && siteNameKey(site.name) === key)) throw siteNameTaken();
}
