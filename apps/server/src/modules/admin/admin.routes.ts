import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminDashboardSchema,
  AuditEntrySchema,
  AuditQuerySchema,
  pagedSchema,
} from '@bloodbank/shared/admin';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { createVersionedCache } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { listAudit } from './audit-log.service';
import { getDashboard } from './dashboard.service';
import { decisionsRoutes } from './decisions.routes';
import { EXPORTS, buildExport } from './export.service';
import { peopleRoutes } from './people.routes';
import { ADMIN_ONLY, adminAccessErrors } from './route-options';
import { unitsRoutes } from './units.routes';

export const adminRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Every figure comes from users, donations, requests and units: the answer, serialized through
  // its schema, is reused until one of them changes (on any instance) or the day turns; see
  // db/change-versions.ts. The 12 weeks of counts are the costly part, and grow with the history.
  const dashboards = createVersionedCache<ReusedJson>(ctx.changes, ['users', 'donations', 'blood_requests', 'blood_units']);

  app.get('/admin/dashboard', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Counts, stock per group (with low-stock and expiring-soon flags), 12 weeks of activity',
      response: { 200: AdminDashboardSchema, ...adminAccessErrors },
    },
    handler: (request, reply) => {
      return sendReusedJson(request, reply, dashboards, ctx.clock.today(), () => getDashboard(ctx));
    },
  });

  app.get('/admin/audit', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Every admin change, newest first: who (with display names), when, what, before and after',
      querystring: AuditQuerySchema,
      response: { 200: pagedSchema(AuditEntrySchema), 422: ErrorResponseSchema, ...adminAccessErrors },
    },
    handler: (request) => listAudit(ctx, request.query),
  });

  for (const name of EXPORTS) {
    app.get(`/admin/export/${name}.csv`, {
      config: ADMIN_ONLY,
      schema: {
        tags: ['admin'],
        summary: `Download every ${name === 'units' ? 'blood unit' : name.slice(0, -1)} as CSV (formula-safe)`,
        produces: ['text/csv'],
        response: { 200: z.string().describe('CSV text'), ...adminAccessErrors },
      },
      handler: async (_request, reply) => {
        const { filename, chunks } = await buildExport(ctx, name);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          // A stream is sent as it comes, never through the serializer; the schema's string describes the body.
          .send(Readable.from(chunks) as unknown as string);
      },
    });
  }

  // Called, not registered: the routes share this plugin's /api prefix and context.
  await peopleRoutes(app, ctx);
  await unitsRoutes(app, ctx);
  await decisionsRoutes(app, ctx);
};
