import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import {
  AchievementSchema,
  DonationCompleteResultSchema,
  EarnedAchievementSchema,
  GameProfileSchema,
  GameStateSchema,
  LeaderboardEntrySchema,
  LeaderboardQuerySchema,
} from '@bloodbank/shared/game';
import type { AppContext } from '../../context';
import { createVersionedCache, PER_USER_ANSWERS_KEPT } from '../../db/change-versions';
import { sendReusedJson, type ReusedJson } from '../../lib/reused-json';
import { principalOf } from '../../plugins/access';
import { completeDonation } from './complete-donation';
import { createProfile } from './create-profile';
import {
  getAchievementCatalogue,
  getGameState,
  getLeaderboard,
  getMyAchievements,
  getMyProfile,
} from './game.service';

const signedInErrors = { 401: ErrorResponseSchema, 403: ErrorResponseSchema };

export const gameRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  // Every donor's game screen shows the board: reused, serialized, until a profile or a user
  // changes (on any instance); see db/change-versions.ts. One entry per limit asked for.
  const leaderboards = createVersionedCache<ReusedJson>(ctx.changes, ['game_profiles', 'users'], 100);
  // A donor's game screen, per donor, until their profile, rewards, achievements (or the catalogue) change.
  const gameStates = createVersionedCache<ReusedJson>(
    ctx.changes,
    ['game_profiles', 'game_rewards', 'earned_achievements', 'achievements', 'donations'],
    PER_USER_ANSWERS_KEPT,
  );

  app.get('/game/profiles/me', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['game'],
      summary: "The signed-in donor's game profile; 404 when they have none yet",
      response: { 200: GameProfileSchema, ...signedInErrors, 404: ErrorResponseSchema },
    },
    handler: async (request) => getMyProfile(ctx.db, principalOf(request).id),
  });

  app.post('/game/profiles', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['game'],
      summary:
        "Create the signed-in donor's profile, derived from their history (any body is ignored); 409 if it exists",
      body: z
        .unknown()
        .optional()
        .describe('Ignored: points, level and streak are never taken from the client'),
      response: { 201: GameProfileSchema, ...signedInErrors, 409: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const profile = await createProfile(ctx, principalOf(request).id);
      return reply.status(201).send(profile);
    },
  });

  app.get('/game/state', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['game'],
      summary:
        'Profile, next level threshold, rewarded donations and earned achievements; 404 without a profile',
      response: { 200: GameStateSchema, ...signedInErrors, 404: ErrorResponseSchema },
    },
    handler: (request, reply) => {
      const donorId = principalOf(request).id;
      return sendReusedJson(request, reply, gameStates, donorId, () => getGameState(ctx.db, donorId));
    },
  });

  app.post('/game/donation-complete', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['game'],
      summary:
        'The rewards credited at collection that the donor has not seen yet (points and achievements), each returned once; 409 when there are none',
      body: z.unknown().optional().describe('Ignored'),
      response: { 200: DonationCompleteResultSchema, ...signedInErrors, 409: ErrorResponseSchema },
    },
    handler: async (request) => completeDonation(ctx, principalOf(request).id),
  });

  app.get('/game/leaderboard', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['game'],
      summary: 'Donors with a profile by points, then who reached them first; limit 1..100 (default 10)',
      querystring: LeaderboardQuerySchema,
      response: { 200: z.array(LeaderboardEntrySchema), 401: ErrorResponseSchema, 422: ErrorResponseSchema },
    },
    handler: (request, reply) => {
      const { limit } = request.query;
      return sendReusedJson(request, reply, leaderboards, limit, () => getLeaderboard(ctx.db, limit));
    },
  });

  app.get('/game/achievements', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['game'],
      summary: 'The achievement catalogue',
      response: { 200: z.array(AchievementSchema), 401: ErrorResponseSchema },
    },
    handler: async () => getAchievementCatalogue(ctx.db),
  });

  app.get('/game/achievements/me', {
    config: { access: ['DONOR'] },
    schema: {
      tags: ['game'],
      summary: 'The achievements the signed-in donor has earned',
      response: { 200: z.array(EarnedAchievementSchema), ...signedInErrors },
    },
    handler: async (request) => getMyAchievements(ctx.db, principalOf(request).id),
  });
};
