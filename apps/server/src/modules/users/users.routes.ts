import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUserSchema, MyDetailsUpdateSchema, PasswordChangeSchema, TokenResponseSchema } from '@bloodbank/shared/auth';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import type { AppContext } from '../../context';
import { principalOf } from '../../plugins/access';
import { forbidden, notFound } from '../../errors';
import { avatarDirectory, mimeTypeOf } from '../../lib/uploads';
import { changeOwnPassword } from '../auth/password-change';
import { findUserProfile } from './users.repository';
import { getCurrentUser, updateMyDetails } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/users/me', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['users'],
      summary: 'The signed-in user (never the password)',
      response: { 200: CurrentUserSchema, 401: ErrorResponseSchema },
    },
    handler: async (request) => getCurrentUser(ctx.db, principalOf(request).id),
  });

  app.patch('/users/me', {
    config: { access: ['DONOR', 'PATIENT'] },
    schema: {
      tags: ['users'],
      summary: 'Correct your own name, e-mail, mobile or address (the registration rules apply to each field sent; a new e-mail address needs current_password)',
      body: MyDetailsUpdateSchema,
      response: { 200: CurrentUserSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema, 422: ErrorResponseSchema, 429: ErrorResponseSchema },
    },
    handler: async (request) => updateMyDetails(ctx, principalOf(request), request.body, request.ip),
  });

  app.post('/users/me/password', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['users'],
      summary:
        'Change your own password with the current one: ends every session of the account (and its reset links) and answers a new token for this device; the address is told by e-mail',
      body: PasswordChangeSchema,
      response: { 200: TokenResponseSchema, 401: ErrorResponseSchema, 422: ErrorResponseSchema, 429: ErrorResponseSchema },
    },
    handler: async (request) => changeOwnPassword(ctx, app.jwt, principalOf(request), request.body, request.ip),
  });

  app.get('/users/:id/avatar', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['users'],
      summary: 'A profile picture: only its owner and admins may see it',
      params: IdParamsSchema,
      produces: ['image/jpeg', 'image/png', 'image/webp'],
      response: {
        200: z.any().describe('The image bytes'),
        401: ErrorResponseSchema,
        403: ErrorResponseSchema,
        404: ErrorResponseSchema,
      },
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      if (principal.role !== 'ADMIN' && principal.id !== request.params.id) throw forbidden();
      const user = await findUserProfile(ctx.db, request.params.id);
      if (!user?.profile_pic) throw notFound('No profile picture');
      const file = path.join(avatarDirectory(ctx.config.dataDir), path.basename(user.profile_pic));
      if (!fs.existsSync(file)) throw notFound('No profile picture');
      return reply
        .header('content-type', mimeTypeOf(file))
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(fs.createReadStream(file));
    },
  });
};
