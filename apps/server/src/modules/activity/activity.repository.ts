import type { DatabaseOrTransaction } from '../../db/database';

/** The feed a donor or patient sees on their dashboard ("Recent Activities"). */
export interface NewActivity {
  userId: number;
  kind: string;
  message: string;
  at: string;
}

export async function recordActivity(db: DatabaseOrTransaction, activity: NewActivity): Promise<void> {
  await db
    .insertInto('activities')
    .values({ user_id: activity.userId, kind: activity.kind, message: activity.message, created_at: activity.at })
    .execute();
}

export function listRecentActivities(db: DatabaseOrTransaction, userId: number, limit: number) {
  return db
    .selectFrom('activities')
    .select(['id', 'kind', 'message', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
