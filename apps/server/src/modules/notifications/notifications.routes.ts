import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import {
  MarkReadSchema,
  NOTIFICATIONS_LISTED,
  NotificationListSchema,
  NotificationsQuerySchema,
  PreferencesPatchSchema,
  PreferencesSchema,
} from '@bloodbank/shared/notifications';
import type { AppContext } from '../../context';
import { createVersionedCache, PER_USER_ANSWERS_KEPT } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { countUnreadOf, listNotificationsOf, markNotificationsRead } from './notifications.repository';
import { getPreferences, updatePreferences } from './preferences';

const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };

/** Each user's notifications and e-mail choices (PRODUCT.md 3.8): their own only. */
export const notificationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // The bell asks every minute from every open tab: reused per user until a notification changes.
  const lists = createVersionedCache<ReusedJson>(ctx.changes, ['notifications'], PER_USER_ANSWERS_KEPT);

  app.get('/notifications', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['notifications'],
      summary: `Your notifications, newest first (${NOTIFICATIONS_LISTED} at a time; \`before\`: those older than that id), how many are unread, and whether there are older ones`,
      querystring: NotificationsQuerySchema,
      response: { 200: NotificationListSchema, ...signedInErrors },
    },
    handler: async (request, reply) => {
      const userId = principalOf(request).id;
      const { before } = request.query;
      const list = async () => {
        // One more than shown tells whether older ones exist.
        const [rows, unread] = await Promise.all([
          listNotificationsOf(ctx.db, userId, NOTIFICATIONS_LISTED + 1, before),
          countUnreadOf(ctx.db, userId),
        ]);
        return {
          items: rows
            .slice(0, NOTIFICATIONS_LISTED)
            .map((row) => ({ id: row.id, kind: row.kind, title: row.title, body: row.body, created_at: row.created_at, read: row.read_at !== null })),
          unread,
          more: rows.length > NOTIFICATIONS_LISTED,
        };
      };
      // The latest page is what the bell asks every minute: answered from the cache while nothing changed.
      if (before === undefined) return sendReusedJson(request, reply, lists, userId, list);
      return list();
    },
  });

  app.post('/notifications/read', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['notifications'],
      summary: 'Mark some of your notifications read (`{ids}`), or all of them (`{all:true}`); ids that are not yours are ignored',
      body: MarkReadSchema,
      response: { 204: z.null().describe('No content'), ...signedInErrors, 422: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const userId = principalOf(request).id;
      const at = ctx.clock.now().toISOString();
      const ids = 'all' in request.body ? 'all' : request.body.ids;
      await ctx.writes.run((trx) => markNotificationsRead(trx, userId, ids, at));
      return reply.status(204).send(null);
    },
  });

  app.get('/users/me/preferences', {
    config: { access: ['DONOR', 'PATIENT'] },
    schema: {
      tags: ['notifications'],
      summary: 'Whether you get e-mails, and (donors) call-outs when your blood group is needed',
      response: { 200: PreferencesSchema, ...signedInErrors },
    },
    handler: async (request) => getPreferences(ctx, principalOf(request).id),
  });

  app.patch('/users/me/preferences', {
    config: { access: ['DONOR', 'PATIENT'] },
    schema: {
      tags: ['notifications'],
      summary: 'Change your e-mail and call-out choices',
      body: PreferencesPatchSchema,
      response: { 200: PreferencesSchema, ...signedInErrors, 422: ErrorResponseSchema },
    },
    handler: async (request) => updatePreferences(ctx, principalOf(request).id, request.body),
  });
};
