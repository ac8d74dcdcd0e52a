import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeferralSchema, LiftDeferralSchema, newDeferralSchema, NewDeferralResultSchema } from '@bloodbank/shared/donation-lifecycle';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors } from '../admin/route-options';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import { deferDonor } from './defer-donor';
import { listDonorDeferrals } from './deferrals.service';
import { liftDeferral } from './lift-deferral';

const errors = { ...adminAccessErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema, 422: ErrorResponseSchema };

/** Deferrals on a donor's page (PRODUCT.md 3.7): confidential, admins only. */
export const deferralsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/admin/donors/:id/deferrals', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "A donor's deferrals, newest first, with who set and lifted them",
      params: IdParamsSchema,
      response: { 200: z.array(DeferralSchema), ...errors },
    },
    handler: async (request) => listDonorDeferrals(ctx, request.params.id),
  });

  app.post('/admin/donors/:id/deferrals', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Defer a donor by hand: temporary until a date (the first day they may donate again) or permanent, with a reason. A pending booking on a day it covers is cancelled (cancelled_booking)',
      params: IdParamsSchema,
      body: newDeferralSchema(() => ctx.clock.today()),
      response: { 201: NewDeferralResultSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await deferDonor(ctx, principalOf(request), request.params.id, request.body)),
  });

  app.post('/admin/deferrals/:id/lift', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Lift a deferral with a reason (409 when already lifted)',
      params: IdParamsSchema,
      body: LiftDeferralSchema,
      response: { 200: DeferralSchema, ...errors },
    },
    handler: async (request) => liftDeferral(ctx, principalOf(request), request.params.id, request.body),
  });
};
