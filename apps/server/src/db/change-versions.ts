import type { Database } from './database';

/** The tables whose every change bumps a counter in change_versions (migration 2026-11-21-0001). */
export type VersionedTable = 'users' | 'donations' | 'blood_requests' | 'blood_units' | 'game_profiles';

/**
 * A value computed from the database, reused for as long as none of the tables it reads has
 * changed, on this instance or any other.
 *
 * Triggers bump change_versions in the same transaction as every insert, update or delete of a
 * versioned table, and the counters only grow. So: read the sum of the counters, then compute; a
 * later request that reads the same sum knows nothing was committed since that first read, so the
 * value (computed after it) is still exactly what a fresh computation would give. Any change makes
 * the next request compute again. Requests that arrive while a computation runs share it; they get
 * a value at least as fresh as the version they read.
 *
 * `key` stands for everything else the value depends on (today's date, the page asked for…); the
 * most recently used `maxEntries` keys are kept.
 */
export interface VersionedCache<Value> {
  get(key: string, compute: () => Promise<Value>): Promise<Value>;
}

export function createVersionedCache<Value>(
  db: Database,
  tables: readonly VersionedTable[],
  maxEntries = 1,
): VersionedCache<Value> {
  const compiled = db
    .selectFrom('change_versions')
    .select((eb) => eb.fn.sum<number>('version').as('version'))
    .where('table_name', 'in', [...tables])
    .compile();
  const readVersion = async () => {
    const result = await db.executeQuery<{ version: number | string | null }>(compiled);
    return Number(result.rows[0]?.version ?? 0);
  };

  const entries = new Map<string, { version: number; value: Promise<Value> }>();
  return {
    async get(key, compute) {
      const version = await readVersion();
      const cached = entries.get(key);
      if (cached && cached.version === version) {
        // Most recently used last.
        entries.delete(key);
        entries.set(key, cached);
        return cached.value;
      }
      const value = compute();
      // Versions only grow: never let a slower, older computation replace a newer one.
      if (!cached || version >= cached.version) {
        const current = { version, value };
        entries.delete(key);
        entries.set(key, current);
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        value.catch(() => {
          if (entries.get(key) === current) entries.delete(key);
        });
      }
      return value;
    },
  };
}
