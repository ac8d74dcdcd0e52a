import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BloodRequestSchema,
  PatientSummarySchema,
  StockEntrySchema,
  bloodRequestFormSchema,
} from '@bloodbank/shared/blood-request';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache, PER_USER_ANSWERS_KEPT } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { getStock } from '../inventory/inventory.service';
import { cancelOwnRequest } from './cancel-request';
import { getPatientSummary, listOwnRequests } from './requests.service';
import { submitBloodRequest } from './submit-request';

const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };
// Ids are PostgreSQL integers: anything larger cannot name a request, and must not reach the query.

export const requestsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Every signed-in screen shows the stock: the answer is reused until a unit changes (on any
  // instance) or the day turns; see db/change-versions.ts.
  const stocks = createVersionedCache<ReusedJson>(ctx.changes, ['blood_units']);
  // A patient's dashboard counters, per patient, until a request changes.
  const patientSummaries = createVersionedCache<ReusedJson>(
    ctx.changes,
    ['blood_requests'],
    PER_USER_ANSWERS_KEPT,
  );

  app.post('/requests', {
    config: { access: ['PATIENT'] },
    schema: {
      tags: ['requests'],
      summary: 'Request blood (the Request Blood form); the request starts pending',
      body: bloodRequestFormSchema(() => ctx.clock.today()),
      response: { 201: BloodRequestSchema, ...signedInErrors, 422: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const created = await submitBloodRequest(ctx, principalOf(request).id, request.body);
      return reply.status(201).send(created);
    },
  });

  app.get('/requests/mine', {
    config: { access: ['PATIENT'] },
    schema: {
      tags: ['requests'],
      summary: "The signed-in patient's requests, newest first, with the units issued to each",
      response: { 200: z.array(BloodRequestSchema), ...signedInErrors },
    },
    handler: async (request) => listOwnRequests(ctx, principalOf(request).id),
  });

  app.post('/requests/:id/cancel', {
    config: { access: ['PATIENT'] },
    schema: {
      tags: ['requests'],
      summary: 'Cancel one of your own requests while it is pending',
      params: IdParamsSchema,
      response: {
        200: BloodRequestSchema,
        ...signedInErrors,
        404: ErrorResponseSchema,
        409: ErrorResponseSchema,
        422: ErrorResponseSchema,
      },
    },
    handler: async (request) => cancelOwnRequest(ctx, principalOf(request).id, request.params.id),
  });

  app.get('/patient/summary', {
    config: { access: ['PATIENT'] },
    schema: {
      tags: ['requests'],
      summary: "The patient dashboard's counters: total, pending, approved and rejected requests",
      response: { 200: PatientSummarySchema, ...signedInErrors },
    },
    handler: (request, reply) => {
      const patientId = principalOf(request).id;
      return sendReusedJson(request, reply, patientSummaries, patientId, () => getPatientSummary(ctx, patientId));
    },
  });

  app.get('/stock', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['requests'],
      summary: 'Available blood stock: all eight groups, counting available units not expired today',
      response: { 200: z.array(StockEntrySchema), 401: ErrorResponseSchema },
    },
    handler: (request, reply) => {
      return sendReusedJson(request, reply, stocks, ctx.clock.today(), () => getStock(ctx));
    },
  });
};
