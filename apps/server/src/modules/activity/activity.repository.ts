import type { DatabaseOrTransaction } from '../../db/database';
import { insertAtCommit } from '../../db/rows-at-commit';

/** The feed a donor or patient sees on their dashboard ("Recent Activities"). */
export interface NewActivity {
  userId: number;
  kind: string;
  message: string;
  at: string;
}

/** Every submitted request, donation and decision records one, inserted with the write batch's others (db/rows-at-commit.ts). */
export async function recordActivity(db: DatabaseOrTransaction, activity: NewActivity): Promise<void> {
  await insertAtCommit(db, 'activities', {
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
