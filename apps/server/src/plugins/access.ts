import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CompiledQuery } from 'kysely';
import type { Role } from '@bloodbank/shared/auth';
import type { Database } from '../db/database';
import { forbidden, unauthorized } from '../errors';

/**
 * Who may call a route. Every /api route must declare one in `config.access`; the app refuses to
 * start otherwise, so no route is ever public by accident.
 * - 'public': anyone
 * - 'signed-in': any active user
 * - [roles]: active users with one of these roles
 */
export type Access = 'public' | 'signed-in' | readonly Role[];

export interface Principal {
  id: number;
  role: Role;
  username: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** Every /api route with its declared access, as registered (the authorization matrix test reads it). */
    apiRoutes: readonly ApiRoute[];
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
  /** Whether the route declares a body or a query schema (the hostile-input tests cover each one). */
  hasBody: boolean;
  hasQuery: boolean;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; role: Role; ver: number };
  }
}

export const SESSION_INVALID = 'Your session has expired or is no longer valid. Please log in again.';

export function registerAccessControl(app: FastifyInstance, db: Database): void {
  app.decorateRequest('principal', null);
  const findSessionUser = sessionUserLookup(db);
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  // Each /api route gets the check as its own onRequest hook (after the rate limiter's), so a
  // refused caller costs no body parsing and a flood of them is throttled first.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
    }
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are added by Fastify itself and share the GET route's hooks.
      if (method === 'HEAD') continue;
      apiRoutes.push({
        method,
        url: route.url,
        access,
        hasBody: route.schema?.body !== undefined,
        hasQuery: route.schema?.querystring !== undefined,
      });
    }
    if (access === 'public') return;
    const checkAccess = async (request: FastifyRequest) => {
      request.principal = await authenticate(request, findSessionUser);
      if (access !== 'signed-in' && !access.includes(request.principal.role)) throw forbidden();
    };
    const existing = route.onRequest ?? [];
    route.onRequest = [...(Array.isArray(existing) ? existing : [existing]), checkAccess];
  });
}

/**
 * The caller's account, read on every request so that deactivation and password resets take effect
 * at once, on every instance (no cache could promise that without a shared invalidation channel).
 * It is the one query every signed-in request runs, so it is built and compiled once, and each call
 * only binds the id (SQLite also reuses the prepared statement).
 */
function sessionUserLookup(db: Database) {
  const compiled = db
    .selectFrom('users')
    .select(['id', 'role', 'username', 'is_active', 'token_version'])
    .where('id', '=', 0)
    .compile();
  type SessionUser = typeof compiled extends CompiledQuery<infer Row> ? Row : never;
  return async (userId: number) => {
    const result = await db.executeQuery<SessionUser>({ ...compiled, parameters: [userId] });
    return result.rows[0];
  };
}

type TokenPayload = { sub: string; role: Role; ver: number };

const MAX_TOKEN_LENGTH = 1024;

async function authenticate(
  request: FastifyRequest,
  findSessionUser: ReturnType<typeof sessionUserLookup>,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Not authenticated');
  // "Bearer <token>", exactly as @fastify/jwt reads it; anything else is not a session.
  const [scheme, token, ...rest] = header.split(' ');
  if (!token || rest.length > 0 || !/^Bearer$/i.test(scheme ?? '')) throw unauthorized(SESSION_INVALID);
  // Ours are about 200 characters: a longer one is not ours, and is refused before any hashing.
  if (token.length > MAX_TOKEN_LENGTH) throw unauthorized(SESSION_INVALID);
  let payload: TokenPayload;
  try {
    // Signature (HS256 only) and expiry; the verifier caches tokens it has verified (app.ts).
    payload = request.server.jwt.verify<TokenPayload>(token);
  } catch {
    throw unauthorized(SESSION_INVALID);
  }
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId)) throw unauthorized(SESSION_INVALID);
  const user = await findSessionUser(userId);
  if (!user || user.is_active !== 1 || user.token_version !== payload.ver || user.role !== payload.role) {
    throw unauthorized(SESSION_INVALID);
  }
  return { id: user.id, role: user.role, username: user.username };
}

/** The signed-in caller of a route that is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
