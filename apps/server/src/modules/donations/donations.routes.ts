import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DonationSchema, DonorSummarySchema, donationFormSchema } from '@bloodbank/shared/donation';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache, PER_USER_ANSWERS_KEPT } from '../../db/change-versions';
import { sendReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { bookDonation } from './book-donation';
import { getDonorSummary, listMyDonations } from './donations.service';

const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };

export const donationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // A donor's dashboard, per donor and day (eligibility depends on today), until their donations
  // or their activity feed change.
  const donorSummaries = createVersionedCache<Buffer>(ctx.changes, ['donations', 'activities'], PER_USER_ANSWERS_KEPT);

  app.post('/donations', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary:
        "Offer a donation. The blood group is the account's own. 409 while another awaits approval; 422 on `date` when it is under 90 days after the last approved donation",
      // "Today" is read at each validation, so a long-running server moves with the calendar.
      body: donationFormSchema(() => ctx.clock.today()),
      response: {
        201: DonationSchema,
        ...signedInErrors,
        409: ErrorResponseSchema,
        422: ErrorResponseSchema,
      },
    },
    handler: async (request, reply) => {
      const donation = await bookDonation(ctx, principalOf(request).id, request.body);
      return reply.status(201).send(donation);
    },
  });

  app.get('/donations/mine', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary: "The signed-in donor's donations, newest first",
      response: { 200: z.array(DonationSchema), ...signedInErrors },
    },
    handler: async (request) => listMyDonations(ctx, principalOf(request).id),
  });

  app.get('/donor/summary', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary: 'Donor dashboard: donation counters, next eligible date and the last 10 activities',
      response: { 200: DonorSummarySchema, ...signedInErrors },
    },
    handler: (request, reply) => {
      const donorId = principalOf(request).id;
      const today = ctx.clock.today();
      return sendReusedJson(reply, donorSummaries, `${donorId}:${today}`, () => getDonorSummary(ctx, donorId, today));
    },
  });
};
