import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PublicSupplySchema } from '@bloodbank/shared/supply';
import type { AppContext } from '../../context';
import { createVersionedCache } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { getPublicSupply } from './supply.service';

export const supplyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Read from blood_stock, which triggers keep in step with blood_units: reused until a unit
  // changes (on any instance) or the day turns (units expire); see db/change-versions.ts.
  const supplies = createVersionedCache<ReusedJson>(ctx.changes, ['blood_units']);

  app.get('/public/supply', {
    config: { access: 'public' },
    schema: {
      tags: ['supply'],
      summary: "Each group's red-cell supply as Critical, Low or Good, never a count (the home page's strip)",
      response: { 200: PublicSupplySchema },
    },
    handler: (request, reply) => sendReusedJson(request, reply, supplies, ctx.clock.today(), () => getPublicSupply(ctx)),
  });
};
