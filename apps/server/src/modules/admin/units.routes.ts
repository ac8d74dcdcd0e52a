import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BloodUnitSchema,
  DiscardConflictSchema,
  DiscardResultSchema,
  DiscardUnitsSchema,
  pagedSchema,
  ReceiveUnitsResultSchema,
  receiveUnitsSchema,
  UnitsQuerySchema,
} from '@bloodbank/shared/admin';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { principalOf } from '../../plugins/access';
import { discardUnits } from '../inventory/discard-units';
import { listUnitsPage } from '../inventory/inventory.service';
import { receiveUnits } from '../inventory/receive-units';
import { ADMIN_ONLY, adminAccessErrors } from './route-options';

/** Manage Blood: the unit list, receiving bags by hand and discarding them. */
export const unitsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/admin/units', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Blood units by group and status (available = usable; expired = available but past expiry)',
      querystring: UnitsQuerySchema,
      response: { 200: pagedSchema(BloodUnitSchema), 422: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: async (request) => listUnitsPage(ctx, request.query),
  });

  app.post('/admin/units', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Receive units by hand (group, count, collection date); they expire after the shelf life',
      body: receiveUnitsSchema(() => ctx.clock.today()),
      response: { 201: ReceiveUnitsResultSchema, 422: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: async (request, reply) => reply.status(201).send(await receiveUnits(ctx, principalOf(request), request.body)),
  });

  app.post('/admin/units/discard', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Discard chosen units, a count of a group (first-expiring-first) with a reason, or every expired unit',
      body: DiscardUnitsSchema,
      response: {
        200: DiscardResultSchema,
        404: ErrorResponseSchema,
        409: DiscardConflictSchema,
        422: ErrorResponseSchema,
        ...adminAccessErrors,
      },
    },
    handler: async (request) => discardUnits(ctx, principalOf(request), request.body),
  });
};
