import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  LoginFormSchema,
  RegistrationResponseSchema,
  RegistrationSchema,
  SESSION_MAX_DAYS,
  TokenResponseSchema,
} from '@bloodbank/shared/auth';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import { PASSWORD_RESET_MESSAGES, PasswordResetConfirmSchema, PasswordResetRequestSchema } from '@bloodbank/shared/notifications';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, badRequest, invalidFields, tooManyRequestsFor } from '../../errors';
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_PICTURE_SIZE_MESSAGE } from '@bloodbank/shared/constants';
import { registerUser } from '../users/register-user';
import { confirmPasswordReset, requestPasswordReset } from './password-reset';
import { principalOf } from '../../plugins/access';
import { renewSession } from './renew-session';
import { signIn } from './sign-in';

declare module 'fastify' {
  interface FastifyRequest {
    profilePicture?: Buffer;
  }
}

const errors = {
  401: ErrorResponseSchema,
  409: ErrorResponseSchema,
  422: ErrorResponseSchema,
  429: ErrorResponseSchema,
};

export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  await app.register(registrationRoute(ctx));

  app.post('/auth/token', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Sign in (OAuth2 password style: form-encoded username and password)',
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: LoginFormSchema,
      response: { 200: TokenResponseSchema, ...errors },
    },
    handler: (request) => signIn(ctx, app.jwt, request.body, request.ip),
  });

  app.post('/auth/renew', {
    config: { access: 'signed-in' },
    schema: {
      tags: ['auth'],
      summary: `Renew the session in use: a new token valid TOKEN_TTL, for the same session (a password change or reset still ends it); 403 once the session is more than ${SESSION_MAX_DAYS} days old`,
      response: { 200: TokenResponseSchema, 401: ErrorResponseSchema, 403: ErrorResponseSchema },
    },
    handler: (request) => renewSession(ctx, app.jwt, principalOf(request), request.headers.authorization!.slice('Bearer '.length)),
  });

  app.post('/auth/password-reset', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      summary:
        'Ask for a password reset link by `{username}` or `{email}`: 202 whether or not the account exists (the link is e-mailed when it does); 429 when this address asked too often',
      body: PasswordResetRequestSchema,
      response: { 202: z.object({ detail: z.string() }), 422: ErrorResponseSchema, 429: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      const wait = await ctx.resetThrottle.waitBeforeNext(request.ip);
      if (wait !== null) throw tooManyRequestsFor(PASSWORD_RESET_MESSAGES.tooMany, wait);
      requestPasswordReset(ctx, request.log, request.body);
      return reply.status(202).send({ detail: PASSWORD_RESET_MESSAGES.requested });
    },
  });

  app.post('/auth/password-reset/confirm', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Set a new password with the token of a reset link (single use, one hour); ends every session of the account. 400 when the link is invalid, used or expired',
      body: PasswordResetConfirmSchema,
      response: { 204: z.null().describe('No content'), 400: ErrorResponseSchema, 422: ErrorResponseSchema },
    },
    handler: async (request, reply) => {
      await confirmPasswordReset(ctx, request.body);
      return reply.status(204).send(null);
    },
  });
};

/**
 * Registration, the one route that takes a file: multipart parsing is registered in its scope only,
 * as the plugin adds three hooks to every request of the scope it is registered in.
 */
const registrationRoute =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: PROFILE_PICTURE_MAX_BYTES, files: 2, fields: 30, fieldSize: 16 * 1024, parts: 40 },
    });

    app.post('/auth/register', {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Register a donor or a patient (JSON, or multipart/form-data with an optional profile_pic file)',
        body: RegistrationSchema,
        response: { 201: RegistrationResponseSchema, ...errors },
      },
      // Multipart bodies are read here so that the same schema validates both content types.
      preValidation: async (request) => {
        if (!request.isMultipart()) return;
        const fields: Record<string, string> = {};
        try {
          await readRegistrationParts(request, fields);
        } catch (error) {
          // Our own refusals and the multipart limits (413, 415) carry a status; anything else is
          // the parser failing on a body that is not multipart at all (no boundary, cut short).
          if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number')
            throw error;
          throw badRequest('Request body is not valid multipart/form-data', 'malformed_body');
        }
        // Validated by the route schema right after this hook.
        request.body = fields as unknown as typeof request.body;
      },
      handler: async (request, reply) => {
        const created = await registerUser(ctx, request.body, request.profilePicture);
        return reply.status(201).send(created);
      },
    });
  };

async function readRegistrationParts(request: FastifyRequest, fields: Record<string, string>): Promise<void> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'profile_pic') {
        await part.toBuffer().catch(() => undefined);
        throw invalidFields({ [part.fieldname]: 'Unexpected file' });
      }
      try {
        request.profilePicture = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw invalidFields({ profile_pic: PROFILE_PICTURE_SIZE_MESSAGE });
        }
        throw error;
      }
      if (request.profilePicture.length === 0) request.profilePicture = undefined;
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
}
