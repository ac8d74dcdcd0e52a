import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminDonationSchema,
  AdminDonationsQuerySchema,
  AdminRequestSchema,
  AdminRequestsQuerySchema,
  ApproveRequestSchema,
  InsufficientStockSchema,
  pagedSchema,
  RejectSchema,
} from '@bloodbank/shared/admin';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache } from '../../db/change-versions';
import { sendReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors, IdParamsSchema } from './route-options';
import { approveDonation } from '../donations/approve-donation';
import { listDonationsPage } from '../donations/donations.service';
import { rejectDonation } from '../donations/reject-donation';
import { approveRequest } from '../requests/approve-request';
import { rejectRequest } from '../requests/reject-request';
import { listRequestsPage } from '../requests/requests.service';

const errors = { ...adminAccessErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema, 422: ErrorResponseSchema };
/** Distinct list queries (status, page, person) kept per list. */
const PAGES_KEPT = 50;

/** Manage Donations and Manage Requests: the lists (pending first) and the once-only decisions. */
export const decisionsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // The pages admins look at, serialized through their schema, are reused until a request or
  // donation, a person or a unit changes (on any instance); see db/change-versions.ts.
  const donationPages = createVersionedCache<Buffer>(ctx.changes, ['donations', 'users', 'blood_units'], PAGES_KEPT);
  const requestPages = createVersionedCache<Buffer>(ctx.changes, ['blood_requests', 'users', 'blood_units'], PAGES_KEPT);

  app.get('/admin/donations', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Donations with donor names: pending first, then newest',
      querystring: AdminDonationsQuerySchema,
      response: { 200: pagedSchema(AdminDonationSchema), ...errors },
    },
    handler: (request, reply) => {
      return sendReusedJson(reply, donationPages, JSON.stringify(request.query), () => listDonationsPage(ctx, request.query));
    },
  });

  app.post('/admin/donations/:id/approve', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Approve a pending donation: its units enter inventory (409 when already decided)',
      params: IdParamsSchema,
      response: { 200: AdminDonationSchema, ...errors },
    },
    handler: async (request) => approveDonation(ctx, principalOf(request), request.params.id),
  });

  app.post('/admin/donations/:id/reject', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Reject a pending donation with an optional reason; the donor's game reward is reversed",
      params: IdParamsSchema,
      body: RejectSchema,
      response: { 200: AdminDonationSchema, ...errors },
    },
    handler: async (request) => rejectDonation(ctx, principalOf(request), request.params.id, request.body),
  });

  app.get('/admin/requests', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Blood requests with patient names: pending first, then newest',
      querystring: AdminRequestsQuerySchema,
      response: { 200: pagedSchema(AdminRequestSchema), ...errors },
    },
    handler: (request, reply) => {
      return sendReusedJson(reply, requestPages, JSON.stringify(request.query), () => listRequestsPage(ctx, request.query));
    },
  });

  app.post('/admin/requests/:id/approve', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Approve a pending request: issues units first-expiring-first from its group, or from a compatible `bloodgroup`; 409 with the stock when short',
      params: IdParamsSchema,
      body: ApproveRequestSchema,
      response: { 200: AdminRequestSchema, ...errors, 409: z.union([InsufficientStockSchema, ErrorResponseSchema]) },
    },
    handler: async (request) => approveRequest(ctx, principalOf(request), request.params.id, request.body),
  });

  app.post('/admin/requests/:id/reject', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Reject a pending request with an optional reason (409 when already decided)',
      params: IdParamsSchema,
      body: RejectSchema,
      response: { 200: AdminRequestSchema, ...errors },
    },
    handler: async (request) => rejectRequest(ctx, principalOf(request), request.params.id, request.body),
  });
};
