import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DonationSchema, DonorSummarySchema, donationFormSchema, rescheduleFormSchema } from '@bloodbank/shared/donation';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache, PER_USER_ANSWERS_KEPT } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import { bookDonation } from './book-donation';
import { cancelDonation } from './cancel-donation';
import { donationCalendar } from './donation-calendar';
import { rescheduleDonation } from './reschedule-donation';
import { getDonorSummary, listMyDonations } from './donations.service';

const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };

export const donationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // A donor's dashboard, per donor and day (eligibility depends on today), until their donations
  // or their activity feed change.
  const donorSummaries = createVersionedCache<ReusedJson>(ctx.changes, ['donations', 'activities', 'deferrals', 'sites'], PER_USER_ANSWERS_KEPT);

  app.post('/donations', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary:
        "Book a donation. The blood group is the account's own. 409 while another booking is pending; 422 on `date` while deferred or before the interval since the last collected donation has passed",
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

  app.post('/donations/:id/cancel', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary: 'Cancel your own pending booking (403 for somebody else\'s, 409 unless pending)',
      params: IdParamsSchema,
      response: { 200: DonationSchema, ...signedInErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema },
    },
    handler: async (request) => cancelDonation(ctx, principalOf(request).id, request.params.id),
  });

  app.post('/donations/:id/reschedule', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary:
        'Move your own pending booking to another date, and to another free slot when sites exist (the old place is freed at once); 409 when the slot is full or the booking is no longer pending; 422 per field as booking',
      params: IdParamsSchema,
      body: rescheduleFormSchema(() => ctx.clock.today()),
      response: { 200: DonationSchema, ...signedInErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema, 422: ErrorResponseSchema },
    },
    handler: async (request) => rescheduleDonation(ctx, principalOf(request).id, request.params.id, request.body),
  });

  app.get('/donations/:id/calendar.ics', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['donations'],
      summary: 'Your pending booking as an iCalendar (.ics) file: the slot at its site, or an all-day event for a booking by date',
      params: IdParamsSchema,
      produces: ['text/calendar'],
      response: { 200: z.string(), ...signedInErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const calendar = await donationCalendar(ctx, principalOf(request).id, request.params.id);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="blood-donation-${request.params.id}.ics"`)
        .header('cache-control', 'no-store')
        .send(calendar);
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
      return sendReusedJson(request, reply, donorSummaries, `${donorId}:${today}`, () => getDonorSummary(ctx, donorId, today));
    },
  });
};
