import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The complete schema of PRODUCT.md. Frozen: never edit a migration that has shipped; add another.
 *
 * Portable choices: ids are integers (SQLite rowid / PostgreSQL identity), flags are 0/1 integers,
 * calendar dates are `YYYY-MM-DD` text and instants ISO-8601 UTC text, so the same queries run on
 * both engines.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen and untyped by design
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const id = (table: CreateTableBuilder<any, any>) =>
    isPostgres
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());

  await id(db.schema.createTable('users'))
    .addColumn('username', 'text', (col) => col.notNull())
    // Lower-cased username: uniqueness is case-insensitive on both engines.
    .addColumn('username_key', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('ADMIN', 'DONOR', 'PATIENT')`))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('bloodgroup', 'text')
    .addColumn('address', 'text')
    .addColumn('mobile', 'text')
    .addColumn('profile_pic', 'text')
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    // Bumped to revoke every token issued before (password reset).
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('deactivated_at', 'text')
    .execute();
  await db.schema.createIndex('users_role_created_idx').on('users').columns(['role', 'created_at']).execute();

  await db.schema
    .createTable('patients')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('disease', 'text', (col) => col.notNull())
    .addColumn('age', 'integer', (col) => col.notNull())
    .addColumn('doctorname', 'text', (col) => col.notNull())
    .execute();

  await id(db.schema.createTable('donations'))
    .addColumn('donor_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('units', 'integer', (col) => col.notNull().check(sql`units between 1 and 2`))
    .addColumn('donation_date', 'text', (col) => col.notNull())
    .addColumn('disease', 'text', (col) => col.notNull())
    .addColumn('last_donation', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'approved', 'rejected')`),
    )
    .addColumn('rejection_reason', 'text')
    .addColumn('decided_by', 'integer', (col) => col.references('users.id'))
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('donations_donor_idx').on('donations').columns(['donor_id', 'id']).execute();
  await db.schema.createIndex('donations_status_idx').on('donations').columns(['status', 'id']).execute();
  await db.schema.createIndex('donations_created_idx').on('donations').column('created_at').execute();
  // At most one donation awaiting approval per donor, even under concurrent submits.
  await db.schema
    .createIndex('donations_one_pending_per_donor')
    .on('donations')
    .column('donor_id')
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await id(db.schema.createTable('blood_requests'))
    .addColumn('patient_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('units', 'integer', (col) => col.notNull().check(sql`units between 1 and 10`))
    .addColumn('required_date', 'text', (col) => col.notNull())
    .addColumn('doctorname', 'text', (col) => col.notNull())
    .addColumn('hospital_address', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'approved', 'rejected', 'cancelled')`),
    )
    .addColumn('rejection_reason', 'text')
    .addColumn('issued_bloodgroup', 'text')
    .addColumn('decided_by', 'integer', (col) => col.references('users.id'))
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('requests_patient_idx').on('blood_requests').columns(['patient_id', 'id']).execute();
  await db.schema.createIndex('requests_status_idx').on('blood_requests').columns(['status', 'id']).execute();
  await db.schema.createIndex('requests_created_idx').on('blood_requests').column('created_at').execute();

  await id(db.schema.createTable('blood_units'))
    .addColumn('bloodgroup', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull().check(sql`source in ('donation', 'manual')`))
    .addColumn('donation_id', 'integer', (col) => col.references('donations.id'))
    .addColumn('collected_on', 'text', (col) => col.notNull())
    .addColumn('expires_on', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('available').check(sql`status in ('available', 'issued', 'discarded')`),
    )
    // A unit is issued to at most one request: one column, set once, by a conditional update.
    .addColumn('request_id', 'integer', (col) => col.references('blood_requests.id'))
    .addColumn('issued_at', 'text')
    .addColumn('discarded_at', 'text')
    .addColumn('discard_reason', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addCheckConstraint('blood_units_issued_has_request', sql`(status = 'issued') = (request_id is not null)`)
    .execute();
  // Stock counts and first-expiring-first selection.
  await db.schema
    .createIndex('units_group_status_expiry_idx')
    .on('blood_units')
    .columns(['bloodgroup', 'status', 'expires_on'])
    .execute();
  await db.schema.createIndex('units_status_expiry_idx').on('blood_units').columns(['status', 'expires_on']).execute();
  await db.schema.createIndex('units_donation_idx').on('blood_units').column('donation_id').execute();
  await db.schema.createIndex('units_request_idx').on('blood_units').column('request_id').execute();

  await id(db.schema.createTable('game_profiles'))
    .addColumn('donor_id', 'integer', (col) => col.notNull().unique().references('users.id'))
    .addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('level', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('donation_streak', 'integer', (col) => col.notNull().defaultTo(0))
    // When the current points were reached: the leaderboard's tie-break (earlier first).
    .addColumn('points_reached_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('game_profiles_leaderboard_idx')
    .on('game_profiles')
    .expression(sql`points desc, points_reached_at asc, id asc`)
    .execute();

  await id(db.schema.createTable('achievements'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('points_reward', 'integer', (col) => col.notNull())
    .addColumn('icon', 'text', (col) => col.notNull())
    .addColumn('rule', 'text', (col) => col.notNull().check(sql`rule in ('donations', 'streak')`))
    .addColumn('threshold', 'integer', (col) => col.notNull())
    .execute();

  await id(db.schema.createTable('earned_achievements'))
    .addColumn('donor_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('achievement_id', 'integer', (col) => col.notNull().references('achievements.id'))
    .addColumn('earned_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('earned_achievements_once', ['donor_id', 'achievement_id'])
    .execute();

  // One row per rewarded donation: the unique donation_id makes "rewarded at most once" a database fact.
  await id(db.schema.createTable('game_rewards'))
    .addColumn('donation_id', 'integer', (col) => col.notNull().unique().references('donations.id'))
    .addColumn('donor_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('rewarded_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('game_rewards_donor_idx').on('game_rewards').columns(['donor_id', 'donation_id']).execute();

  await id(db.schema.createTable('activities'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('activities_user_idx').on('activities').columns(['user_id', 'id']).execute();

  await id(db.schema.createTable('audit_log'))
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'integer', (col) => col.references('users.id'))
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('entity', 'text', (col) => col.notNull())
    .addColumn('entity_id', 'integer')
    .addColumn('detail', 'text', (col) => col.notNull())
    .execute();

  // The achievement catalogue: names and rewards as in the older Blood Hero server; icon key = rule code.
  await db
    .insertInto('achievements')
    .values([
      ['first_hero_badge', 'First Time Hero', 'Complete your first blood donation', 100, 'donations', 1],
      ['regular_hero_badge', 'Regular Hero', 'Complete 3 blood donations', 300, 'donations', 3],
      ['super_hero_badge', 'Super Hero', 'Complete 5 blood donations', 500, 'donations', 5],
      ['master_badge', 'Blood Donation Master', 'Complete 10 blood donations', 1000, 'donations', 10],
      ['streak_badge', 'Consistent Donor', 'Maintain a donation streak of 3', 500, 'streak', 3],
    ].map(([code, name, description, points_reward, rule, threshold]) => ({
      code,
      name,
      description,
      points_reward,
      icon: code,
      rule,
      threshold,
    })))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'audit_log',
    'activities',
    'game_rewards',
    'earned_achievements',
    'achievements',
    'game_profiles',
    'blood_units',
    'blood_requests',
    'donations',
    'patients',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
