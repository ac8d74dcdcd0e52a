import type { DatabaseOrTransaction } from '../../db/database';
import { preparedInsertOnly } from '../../db/prepared-insert';

/** The feed a donor or patient sees on their dashboard ("Recent Activities"). */
export interface NewActivity {
  userId: number;
  kind: string;
  message: string;
  at: string;
}

// Every submitted request, donation and decision records one: compiled once (db/prepared-insert.ts).
const insertActivity = preparedInsertOnly('activities', ['user_id', 'kind', 'message', 'created_at']);

export async function recordActivity(db: DatabaseOrTransaction, activity: NewActivity): Promise<void> {
  await insertActivity(db, {
    user_id: activity.userId,
    kind: activity.kind,
    message: activity.message,
    created_at: activity.at,
  });
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
