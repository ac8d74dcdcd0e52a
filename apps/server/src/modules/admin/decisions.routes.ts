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
import {
  CollectionResultSchema,
  CollectionSchema,
  ScreeningThresholdsSchema,
  TestResultsOutcomeSchema,
  TestResultsSchema,
} from '@bloodbank/shared/donation-lifecycle';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors } from './route-options';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import { checkInDonation } from '../donations/check-in-donation';
import { collectDonation } from '../donations/collect-donation';
import { listDonationsPage } from '../donations/donations.service';
import { recordTestResults } from '../donations/record-test-results';
import { rejectDonation } from '../donations/reject-donation';
import { approveRequest } from '../requests/approve-request';
import { rejectRequest } from '../requests/reject-request';
import { listRequestsPage } from '../requests/requests.service';

const errors = { ...adminAccessErrors, 404: ErrorResponseSchema, 409: ErrorResponseSchema, 422: ErrorResponseSchema };
/** Distinct list queries (status, page, person) kept per list. */
const PAGES_KEPT = 50;

/** Manage Donations and Manage Requests: the lists (what waits for staff first) and the once-only steps. */
export const decisionsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // The pages admins look at, serialized through their schema, are reused until a request or
  // donation, a person or a unit changes (on any instance); see db/change-versions.ts.
  const donationPages = createVersionedCache<ReusedJson>(
    ctx.changes,
    ['donations', 'users', 'blood_units', 'donation_screenings', 'donation_test_results', 'sites'],
    PAGES_KEPT,
  );
  const requestPages = createVersionedCache<ReusedJson>(ctx.changes, ['blood_requests', 'users', 'blood_units'], PAGES_KEPT);

  app.get('/admin/donations', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Donations with donor names and (confidential) screening and test results: bookings by date, then those awaiting results, then the newest; `due=true` for the bookings due today or earlier',
      querystring: AdminDonationsQuerySchema,
      response: { 200: pagedSchema(AdminDonationSchema), ...errors },
    },
    handler: (request, reply) => {
      // The bank's day is part of the key: "due today" moves at midnight, when no table changes.
      const key = `${ctx.clock.today()}:${JSON.stringify(request.query)}`;
      return sendReusedJson(request, reply, donationPages, key, () => listDonationsPage(ctx, request.query));
    },
  });

  app.get('/admin/screening-thresholds', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'The screening thresholds a donor must meet at collection, and how long a failed screening defers',
      response: { 200: ScreeningThresholdsSchema, ...adminAccessErrors },
    },
    handler: async () => ctx.config.screening,
  });

  app.post('/admin/donations/:id/check-in', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Check in the donor of a booking on its day (the site's day list); 409 on another day, unless pending, or when already checked in",
      params: IdParamsSchema,
      response: { 200: AdminDonationSchema, ...errors },
    },
    handler: async (request) => checkInDonation(ctx, principalOf(request), request.params.id),
  });

  app.post('/admin/donations/:id/collect', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Record the collection of a pending booking with the screening measurements: collected (units quarantined, +100 points) or deferred (a failed threshold); 409 before the booked date or unless pending',
      params: IdParamsSchema,
      body: CollectionSchema,
      response: { 200: CollectionResultSchema, ...errors },
    },
    handler: async (request) => collectDonation(ctx, principalOf(request), request.params.id, request.body),
  });

  app.post('/admin/donations/:id/results', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary:
        'Record the test results of a collected donation, once: all negative releases its units; any reactive discards them, defers the donor and holds their other recent units (lookback); 409 unless collected',
      params: IdParamsSchema,
      body: TestResultsSchema,
      response: { 200: TestResultsOutcomeSchema, ...errors },
    },
    handler: async (request) => recordTestResults(ctx, principalOf(request), request.params.id, request.body),
  });

  app.post('/admin/donations/:id/reject', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Reject a pending booking with an optional reason shown to the donor (409 unless pending)',
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
      return sendReusedJson(request, reply, requestPages, JSON.stringify(request.query), () => listRequestsPage(ctx, request.query));
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
