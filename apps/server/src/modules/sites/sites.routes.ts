import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import {
  AffectedBookingsSchema,
  PublicSiteSchema,
  SiteCalendarChangeSchema,
  SiteDaySchema,
  SiteFormSchema,
  SitePatchSchema,
  SiteSchema,
  SiteUpdateSchema,
  SlotSchema,
  SlotsQuerySchema,
} from '@bloodbank/shared/sites';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import type { AppContext } from '../../context';
import { createVersionedCache } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors } from '../admin/route-options';
import { listAffectedBookings } from './affected-bookings';
import { createSite } from './create-site';
import { getSiteDay, listBookableSites, listSites, listSlots } from './sites.service';
import { updateSite } from './update-site';

const signedIn = { access: 'signed-in' } as const;
const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };
const adminErrors = { ...adminAccessErrors, 404: ErrorResponseSchema, 422: ErrorResponseSchema };
/** Creating or renaming a site: 409 when another site has the name (case and spaces aside). */
const siteWriteErrors = { ...adminErrors, 409: ErrorResponseSchema };
/** A day's slots per site and date: the donor's booking form asks again for each date it shows. */
const SLOT_ANSWERS_KEPT = 256;
/** Calendar changes asked about before a save: a handful at a time. */
const AFFECTED_ANSWERS_KEPT = 32;

/** Donation sites and appointments (PRODUCT.md 3.6): the donor's booking form reads the first two. */
export const sitesRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Reused until a site or a booking changes. Today's slots also depend on the time of day: the
  // minute is part of the key, so a slot that has begun drops out within the minute.
  const bookableSites = createVersionedCache<ReusedJson>(ctx.changes, ['sites']);
  const slotAnswers = createVersionedCache<ReusedJson>(ctx.changes, ['sites', 'donations'], SLOT_ANSWERS_KEPT);
  // The same question again (the form asked, staff went back and saved) reads nothing until a site,
  // a booking or a donor's name changes; the day is part of the key, as bookings count from today.
  const affectedAnswers = createVersionedCache<ReusedJson>(ctx.changes, ['sites', 'donations', 'users'], AFFECTED_ANSWERS_KEPT);

  app.get('/sites', {
    config: signedIn,
    schema: {
      tags: ['sites'],
      summary: 'The active donation sites, with their opening hours, slot length and closed dates',
      response: { 200: z.array(PublicSiteSchema), ...signedInErrors },
    },
    handler: (request, reply) => sendReusedJson(request, reply, bookableSites, 0, () => listBookableSites(ctx)),
  });

  app.get('/sites/:id/slots', {
    config: signedIn,
    schema: {
      tags: ['sites'],
      summary:
        "A site's slots on a date with the places left in each (0 when full); none when it is closed; today, only those not yet begun. 404 for an unknown or inactive site",
      params: IdParamsSchema,
      querystring: SlotsQuerySchema,
      response: { 200: z.array(SlotSchema), ...signedInErrors, 404: ErrorResponseSchema, 422: ErrorResponseSchema },
    },
    handler: (request, reply) => {
      const { id } = request.params;
      const { date } = request.query;
      // Today is part of every key (the booking window and the past move at midnight, when no
      // table changes), and today's slots also the minute, as a slot that has begun drops out.
      const today = ctx.clock.today();
      const key = date === today ? `${id}:${date}:${ctx.clock.time()}` : `${id}:${date}:${today}`;
      return sendReusedJson(request, reply, slotAnswers, key, () => listSlots(ctx, id, date));
    },
  });

  app.get('/admin/sites', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Every donation site, active ones first',
      response: { 200: z.array(SiteSchema), ...adminAccessErrors },
    },
    handler: async () => listSites(ctx),
  });

  app.post('/admin/sites', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Create a donation site: name, address, weekly hours (null: closed that day), slot length, capacity per slot, closed dates; 409 when another site has the name, case and spaces aside',
      body: SiteFormSchema,
      response: { 201: SiteSchema, ...siteWriteErrors },
    },
    handler: async (request, reply) => reply.status(201).send(await createSite(ctx, principalOf(request), request.body)),
  });

  app.patch('/admin/sites/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Edit a site, or deactivate it with {active:false} (no new bookings; its bookings stay). New hours or closed dates cancel the bookings at times the site no longer keeps, and tell their donors. 409 when renamed to the name of another site, case and spaces aside',
      params: IdParamsSchema,
      body: SitePatchSchema,
      response: { 200: SiteUpdateSchema, ...siteWriteErrors },
    },
    handler: async (request) => updateSite(ctx, principalOf(request), request.params.id, request.body),
  });

  app.post('/admin/sites/:id/affected-bookings', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Before saving new hours or closed dates: the bookings from today on that they would cancel (pending, nobody checked in, at a time the site would not keep), with the donors\' names. Changes nothing',
      params: IdParamsSchema,
      body: SiteCalendarChangeSchema,
      response: { 200: AffectedBookingsSchema, ...adminErrors },
    },
    handler: (request, reply) => {
      const key = `${request.params.id}:${ctx.clock.today()}:${JSON.stringify(request.body)}`;
      return sendReusedJson(request, reply, affectedAnswers, key, () => listAffectedBookings(ctx, request.params.id, request.body));
    },
  });

  app.get('/admin/sites/:id/day', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "A site's day list: its hours, each booking by time with the donor and its state, and the counts",
      params: IdParamsSchema,
      querystring: SlotsQuerySchema,
      response: { 200: SiteDaySchema, ...adminErrors },
    },
    handler: async (request) => getSiteDay(ctx, request.params.id, request.query.date),
  });
};
