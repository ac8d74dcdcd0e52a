import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { openDatabase } from '../../src/db/database';
import { staffOf } from '../donation-helpers';
import type { TestUser } from '../factories';
import { createTestApp, testDatabaseUrl, type TestApp } from '../test-app';

/**
 * For the PostgreSQL race tests: a second instance of the app (its own pool and write batches, on
 * the same schema and clock as `t`), and a plain connection (`holder`) that takes locks to make the
 * worst order of two writes happen every time.
 */
export interface SecondInstance {
  other: FastifyInstance;
  holder: pg.Client;
  /**
   * Until PostgreSQL shows at least `count` statements (other than the holder's) waiting for a lock,
   * of those whose text contains `statementLike` when given (other test files share the database).
   */
  untilWaiting(count: number, statementLike?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSecondInstance(t: TestApp): Promise<SecondInstance> {
  const database = openDatabase({ databaseUrl: testDatabaseUrl!, pgSchema: t.pgSchema!, poolSize: 5 });
  const other = await buildApp(t.config, { database, clock: t.clock, logger: false });
  await other.ready();
  const holder = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${t.pgSchema}` });
  await holder.connect();
  return {
    other,
    holder,
    async untilWaiting(count, statementLike = '') {
      for (let tries = 0; tries < 150; tries += 1) {
        // Inside a transaction pg_stat_activity answers the same snapshot until it is cleared.
        await holder.query('select pg_stat_clear_snapshot()');
        const { rows } = await holder.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid() and query ilike $1",
          [`%${statementLike}%`],
        );
        if (rows[0]!.n >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`fewer than ${count} statements${statementLike ? ` like "${statementLike}"` : ''} waited for a lock`);
    },
    async close() {
      await holder.end();
      await other.close();
    },
  };
}

export interface TwoInstances {
  t: TestApp;
  second: SecondInstance;
  admin: TestUser;
}

/**
 * What every PostgreSQL race test file sets up: the app `t` with its clock at `now`, a second
 * instance on the same schema, and a staff account; opened before the file's tests, closed after.
 * `use` receives them (`({ t, second, admin } = world)`).
 */
export function onTwoInstances(now: string, use: (world: TwoInstances) => void): void {
  let world: Partial<TwoInstances> = {};
  beforeAll(async () => {
    const t = await createTestApp({ now });
    world = { t };
    const second = await startSecondInstance(t);
    world = { t, second, admin: await staffOf(t) };
    use(world as TwoInstances);
  });
  afterAll(async () => {
    await world.second?.close();
    await world.t?.close();
  });
}
