import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CompiledQuery } from 'kysely';
import type { Role } from '@bloodbank/shared/auth';
import { MESSAGES } from '@bloodbank/shared/constants';
import { askerOf, createVersionedCache, type ChangeWatch } from '../db/change-versions';
import type { Database } from '../db/database';
import { forbidden, unauthorized } from '../errors';
import { hookList } from './route-hooks';

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
  /** The account's token_version the session was signed with: a write that must not outlive a sign-out everywhere (a password reset) checks it again under its lock. */
  sessionVersion: number;
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

export const SESSION_INVALID = MESSAGES.sessionInvalid;

export function registerAccessControl(app: FastifyInstance, db: Database, changes: ChangeWatch): void {
  app.decorateRequest('principal', null);
  const findSessionUser = sessionUserLookup(db, changes);
  const verifyToken = tokenVerifier(app);
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
    // Callback style, so that a caller whose session is already known (SQLite) passes in the same
    // turn, with no promise in between.
    const checkAccess = (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) => {
      const admit = (principal: Principal) => {
        request.principal = principal;
        if (access !== 'signed-in' && !access.includes(principal.role)) return done(forbidden());
        done();
      };
      let principal: Principal | Promise<Principal>;
      try {
        principal = authenticate(request, verifyToken, findSessionUser);
      } catch (error) {
        return done(error as Error);
      }
      if (principal instanceof Promise) principal.then(admit, done);
      else admit(principal);
    };
    route.onRequest = [...hookList(route.onRequest), checkAccess];
  });
}

/**
 * The caller's account, checked on every request so that deactivation and password resets take
 * effect at once, on every instance. The row is reused until a commit changes the users (see
 * db/change-versions.ts: free to ask on SQLite, one counter read per turn of the event loop on
 * PostgreSQL); it is read with a query built and compiled once that only binds the id.
 */
function sessionUserLookup(db: Database, changes: ChangeWatch) {
  const compiled = compileSessionUserQuery(db);
  const read = async (userId: number) => {
    const result = await db.executeQuery<SessionUser>({ ...compiled, parameters: [userId] });
    return result.rows[0];
  };
  const sessionUsers = createVersionedCache<SessionUser | undefined>(changes, ['users'], SESSION_USERS_KEPT);
  // A read's reused answer then uses the same read of the counters (askerOf).
  return (userId: number, request: FastifyRequest) => sessionUsers.get(userId, () => read(userId), askerOf(request));
}

const SESSION_USERS_KEPT = 10_000;

const compileSessionUserQuery = (db: Database) =>
  db.selectFrom('users').select(['id', 'role', 'username', 'is_active', 'token_version']).where('id', '=', 0).compile();
type SessionUser = ReturnType<typeof compileSessionUserQuery> extends CompiledQuery<infer Row> ? Row : never;

/**
 * Signature (HS256 only) and expiry of a bearer token. A token verified once is remembered, by its
 * exact text, until it expires: the signature check is a pure function of the token and the
 * secret, so the same text always verifies the same way. Whether its user may still use it is
 * the session check's business, never cached beyond a change (above).
 */
function tokenVerifier(app: FastifyInstance) {
  const verified = new Map<string, { payload: TokenPayload; expiresAtMs: number }>();
  return (token: string): TokenPayload => {
    const known = verified.get(token);
    if (known) {
      if (known.expiresAtMs > Date.now()) return known.payload;
      verified.delete(token);
    }
    const payload = app.jwt.verify<TokenPayload>(token);
    if (typeof payload.exp === 'number') {
      verified.set(token, { payload, expiresAtMs: payload.exp * 1000 });
      // Oldest first out: a Map iterates in insertion order.
      if (verified.size > VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    }
    return payload;
  };
}

const VERIFIED_TOKENS_KEPT = 10_000;

type TokenPayload = { sub: string; role: Role; ver: number; exp?: number };

const MAX_TOKEN_LENGTH = 1024;

function authenticate(
  request: FastifyRequest,
  verifyToken: ReturnType<typeof tokenVerifier>,
  findSessionUser: ReturnType<typeof sessionUserLookup>,
): Principal | Promise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Not authenticated');
  // "Bearer <token>", exactly as @fastify/jwt reads it; anything else is not a session. (Cut at
  // the space rather than split: this runs on every request.)
  const space = header.indexOf(' ');
  const token = header.slice(space + 1);
  if (space < 0 || !token || token.includes(' ') || header.slice(0, space).toLowerCase() !== 'bearer') {
    throw unauthorized(SESSION_INVALID);
  }
  // Ours are about 200 characters: a longer one is not ours, and is refused before any hashing.
  if (token.length > MAX_TOKEN_LENGTH) throw unauthorized(SESSION_INVALID);
  let payload: TokenPayload;
  try {
    payload = verifyToken(token);
  } catch {
    throw unauthorized(SESSION_INVALID);
  }
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId)) throw unauthorized(SESSION_INVALID);
  const user = findSessionUser(userId, request);
  return user instanceof Promise ? user.then((found) => sessionPrincipal(found, payload)) : sessionPrincipal(user, payload);
}

/** The session's user, if it may still use a token with this payload. */
function sessionPrincipal(user: SessionUser | undefined, payload: TokenPayload): Principal {
  if (!user || user.is_active !== 1 || user.token_version !== payload.ver || user.role !== payload.role) {
    throw unauthorized(SESSION_INVALID);
  }
  return { id: user.id, role: user.role, username: user.username, sessionVersion: user.token_version };
}

/** The signed-in caller of a route that is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
