import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onTestDatabase, testDatabaseUrl, type TestApp } from '../../test/test-app';

/**
 * The migrator finds its bookkeeping tables by introspection. On PostgreSQL that reads the
 * connection's own schema only (db/postgres-introspector.ts): Kysely's own read walked every
 * schema's tables, and failed with "schema … does not exist" when another one was dropped
 * meanwhile (two test files at once did it in CI).
 */
describe.skipIf(!testDatabaseUrl)('introspection on PostgreSQL', () => {
  let t: TestApp;
  const other = `other_${Date.now().toString(36)}`;
  beforeAll(async () => {
    t = await createTestApp();
    await onTestDatabase(
      `create schema ${other}`,
      `create table ${other}.kysely_migration (name text primary key)`,
      `create table ${other}.someone_elses (id serial primary key)`,
    );
  });
  afterAll(async () => {
    await onTestDatabase(`drop schema if exists ${other} cascade`);
    await t.close();
  });

  it("lists the tables of the connection's own schema, and none of another's", async () => {
    const [schema] = await t.db.introspection.getSchemas();
    const tables = await t.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema!.name]));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['users', 'donations', 'kysely_migration']));
    expect(tables.map((table) => table.name)).not.toContain('someone_elses');
    const users = tables.find((table) => table.name === 'users')!;
    expect(users.columns.find((column) => column.name === 'id')).toMatchObject({ isAutoIncrementing: true, isNullable: false });
  });

  it("leaves Kysely's bookkeeping tables out unless asked for them", async () => {
    const names = (await t.db.introspection.getTables()).map((table) => table.name);
    expect(names).toContain('users');
    expect(names).not.toContain('kysely_migration');
  });
});
