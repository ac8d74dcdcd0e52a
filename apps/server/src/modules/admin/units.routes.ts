import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BloodUnitSchema,
  DiscardConflictSchema,
  DiscardResultSchema,
  DiscardUnitsSchema,
  pagedSchema,
  ProcessUnitResultSchema,
  ProcessUnitSchema,
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
import { processUnit } from '../inventory/process-unit';
import { releaseHeldUnit } from '../inventory/release-held-unit';
import { ADMIN_ONLY, adminAccessErrors } from './route-options';
import { IdParamsSchema } from '@bloodbank/shared/fields';

/** Manage Blood: the unit list, receiving bags by hand and discarding them. */
export const unitsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/admin/units', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Blood units by group and status (available = usable; expired = available but past expiry; quarantined = in testing or on a lookback hold, with its hold reason)',
      querystring: UnitsQuerySchema,
      response: { 200: pagedSchema(BloodUnitSchema), 422: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: async (request) => listUnitsPage(ctx, request.query),
  });

  app.post('/admin/units', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Receive units by hand (group, component, count, collection date); they expire after the component\'s shelf life',
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

  app.post('/admin/units/:id/release', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Release a unit on a lookback hold: back to stock, or back to testing when its donation has no results yet (409 unless on a lookback hold)',
      params: IdParamsSchema,
      response: { 200: BloodUnitSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: async (request) => releaseHeldUnit(ctx, principalOf(request), request.params.id),
  });

  app.post('/admin/units/:id/process', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Separate a whole-blood unit (quarantined or available, not expired) into red cells, plasma and platelets (platelets on the day of collection only); the children keep its status; 409 when already processed',
      params: IdParamsSchema,
      body: ProcessUnitSchema,
      response: { 200: ProcessUnitResultSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema, 422: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: async (request) => processUnit(ctx, principalOf(request), request.params.id, request.body),
  });
};
