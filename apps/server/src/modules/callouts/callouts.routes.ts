import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CALLOUT_BOOKED_WITHIN_DAYS, CalloutResultSchema, CalloutSchema, NewCalloutSchema } from '@bloodbank/shared/notifications';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors } from '../admin/route-options';
import { recordAudit } from '../audit/audit.repository';
import { sendCallout } from './send-callout';

/** The admin Call-outs screen (PRODUCT.md 3.8): call out a group, and see what each call-out did. */
export const calloutsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.post('/admin/callouts', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Call out the donors who can give to a group: eligible, not deferred, opted in, each told at most once in 14 days',
      body: NewCalloutSchema,
      response: { 201: CalloutResultSchema, ...adminAccessErrors, 422: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const admin = principalOf(request);
      const at = ctx.clock.now().toISOString();
      const result = await ctx.writes.run(async (trx) => {
        const sent = await sendCallout(ctx, trx, { bloodgroup: request.body.bloodgroup, reason: 'staff', createdBy: admin.id }, at);
        await recordAudit(trx, {
          actorId: admin.id,
          actor: admin.username,
          action: 'callout.sent',
          entity: 'callout',
          entityId: sent.id,
          after: { bloodgroup: request.body.bloodgroup, notified: sent.notified },
          at,
        });
        return sent;
      });
      return reply.status(201).send(result);
    },
  });

  app.get('/admin/callouts', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: `Every call-out, newest first, with how many donors were told and how many booked within ${CALLOUT_BOOKED_WITHIN_DAYS} days of it`,
      response: { 200: z.array(CalloutSchema), ...adminAccessErrors },
    },
    handler: async () => {
      const callouts = await ctx.db
        .selectFrom('callouts')
        .leftJoin('users', 'users.id', 'callouts.created_by')
        .select(['callouts.id', 'callouts.bloodgroup', 'callouts.reason', 'callouts.created_at', 'callouts.notified', 'users.username as created_by'])
        .orderBy('callouts.id', 'desc')
        .limit(100)
        .execute();
      if (callouts.length === 0) return [];
      // A told donor who booked (any booking made) within 7 days of being told.
      const recipients = await ctx.db
        .selectFrom('callout_recipients')
        .select(['callout_id', 'donor_id', 'notified_at'])
        .where('callout_id', 'in', callouts.map((callout) => callout.id))
        .execute();
      const bookings = recipients.length
        ? await ctx.db
            .selectFrom('donations')
            .select(['donor_id', 'created_at'])
            .where('donor_id', 'in', [...new Set(recipients.map((recipient) => recipient.donor_id))])
            .where('created_at', '>=', recipients.map((recipient) => recipient.notified_at).sort()[0]!)
            .execute()
        : [];
      const booked = new Map<number, number>();
      for (const recipient of recipients) {
        const until = new Date(Date.parse(recipient.notified_at) + CALLOUT_BOOKED_WITHIN_DAYS * 86_400_000).toISOString();
        if (bookings.some((booking) => booking.donor_id === recipient.donor_id && booking.created_at >= recipient.notified_at && booking.created_at <= until)) {
          booked.set(recipient.callout_id, (booked.get(recipient.callout_id) ?? 0) + 1);
        }
      }
      return callouts.map((callout) => ({ ...callout, booked_within_7_days: booked.get(callout.id) ?? 0 }));
    },
  });
};
