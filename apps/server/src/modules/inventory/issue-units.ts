import type { Transaction } from 'kysely';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import type { Component } from '@bloodbank/shared/components';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/types';
import { lockStockTaking, lockUsableUnitsFefo, markUnitsIssued } from './inventory.repository';

/**
 * Issues `count` usable units of a group to a request, first-expiring-first across the components
 * that can fill it (a red-cell request: red cells and whole blood; PRODUCT.md 3.3),
 * inside the caller's transaction (requests/approve-request.ts). Returns the unit ids, or null when
 * the group cannot cover the whole request (the caller then rolls back).
 *
 * Safe under any concurrency, from any number of processes: two admins approving at once can never
 * issue the same unit or drive stock below zero.
 */
export async function issueUnitsFefo(
  trx: Transaction<DB>,
  engine: Engine,
  issue: { bloodgroup: BloodGroup; components: readonly Component[]; count: number; requestId: number; today: string; at: string },
): Promise<number[] | null> {
  // Taking stock is serialized across processes (an advisory lock on PostgreSQL), so two approvals
  // cannot each grab part of the last units and both be refused.
  await lockStockTaking(trx, engine);
  // The candidates: available, not expired today, ordered by expiry date then id, row-locked
  // (FOR UPDATE SKIP LOCKED on PostgreSQL). This ordering is the FEFO rule.
  const unitIds = await lockUsableUnitsFefo(trx, engine, issue);
  if (unitIds.length < issue.count) return null;
  // The update touches only units still available and unexpired: anything short of `count` rows
  // means another transaction got there first, and the whole approval is refused.
  const issued = await markUnitsIssued(trx, unitIds, issue);
  return issued === issue.count ? unitIds : null;
}
