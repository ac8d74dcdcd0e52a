import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COLLECTED_DONATION_STATUSES } from '@bloodbank/shared/donation';
import { HealthSchema, StatsSchema } from '@bloodbank/shared/stats';
import { ContactSchema } from '@bloodbank/shared/contact';
import type { AppContext } from '../../context';
import { countActiveUsers } from '../users/users.repository';
import { countStockTotal } from '../inventory/inventory.repository';

export const systemRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/health', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      summary: 'Liveness and database reachability (503 when the database does not answer)',
      response: { 200: HealthSchema, 503: HealthSchema },
    },
    handler: async (request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db);
        return { status: 'ok' as const, db: 'ok' as const };
      } catch (error) {
        // An outage is logged once by the monitor, not at every probe of a load balancer.
        if (!ctx.outages.report(error)) request.log.error({ err: error, req: request }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable', db: 'unreachable' });
      }
    },
  });

  const bankDetails = { ...ctx.config.contact, time_zone: ctx.config.timezone };
  app.get('/public/contact', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      summary:
        "The bank's public phone and e-mail (BANK_PHONE, BANK_EMAIL), the footer of every page, and its time zone (TIMEZONE): the web app's \"today\" is the bank's",
      response: { 200: ContactSchema },
    },
    // Set at startup, so a browser may keep it a while; a changed number shows within minutes.
    handler: (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return bankDetails;
    },
  });

  app.get('/stats', {
    config: { access: 'public' },
    schema: {
      tags: ['system'],
      summary: 'Live headline figures for the home page',
      response: { 200: StatsSchema },
    },
    handler: async () => {
      const [donors, patients, units, donations] = await Promise.all([
        countActiveUsers(ctx.db, 'DONOR'),
        countActiveUsers(ctx.db, 'PATIENT'),
        countStockTotal(ctx.db, ctx.clock.today()),
        ctx.db
          .selectFrom('donations')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          // Donations that gave blood (PRODUCT.md 3.2): collected, released, or discarded after a test.
          .where('status', 'in', COLLECTED_DONATION_STATUSES)
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.count)),
      ]);
      return { donors, patients, units, donations };
    },
  });
};
