import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import fastifyJwt from '@fastify/jwt';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import { runDailyWork, startDailyWork } from './daily-work';
import { createJobWorker } from './modules/notifications/job-worker';
import { createMailBudget } from './modules/notifications/mail-budget';
import { createMailer, type Mailer } from './modules/notifications/mailer';
import { databaseOutageMonitor } from './db/availability';
import type { DatabaseHandle } from './db/database';
import { writeTransactionsFor } from './db/write-transactions';
import { createClock, type Clock } from './lib/clock';
import { resolveJwtSecret } from './lib/jwt-secret';
import { createLoginThrottle } from './lib/login-throttle';
import { createResetThrottle } from './lib/reset-throttle';
import { createSecurityNotices } from './lib/security-notices';
import { closeRedis, connectRedis } from './lib/redis-connection';
import { ErrorsOnlyRequestLog, serializeLoggedRequest } from './lib/request-log';
import { responseSerializerCompiler } from './lib/response-serializer';
import { registerAccessControl } from './plugins/access';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './plugins/error-handler';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerTextInputGuard } from './plugins/text-input';
import { isSpaRequest, registerWebApp } from './plugins/web-app';
import { adminRoutes } from './modules/admin/admin.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { deferralsRoutes } from './modules/deferrals/deferrals.routes';
import { donationsRoutes } from './modules/donations/donations.routes';
import { gameRoutes } from './modules/game/game.routes';
import { requestsRoutes } from './modules/requests/requests.routes';
import { calloutsRoutes } from './modules/callouts/callouts.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { sitesRoutes } from './modules/sites/sites.routes';
import { supplyRoutes } from './modules/supply/supply.routes';
import { systemRoutes } from './modules/system/system.routes';
import { usersRoutes } from './modules/users/users.routes';

export interface AppDependencies {
  database: DatabaseHandle;
  clock?: Clock;
  /** false silences logs (tests); default: JSON logs at config.logLevel. */
  logger?: boolean;
  /** Where logs go instead of stdout (tests read them back). */
  logStream?: NodeJS.WritableStream;
  /** Run the daily work (daily-work.ts) while the app is up: the server does; tests call app.runDailyWork(). */
  dailyWork?: boolean;
  /** Run the job queue in the background: the server does; tests call app.runJobs(). */
  jobWorker?: boolean;
  /** Where e-mail goes; default from the config (SMTP_URL, or the outbox folder). */
  mailer?: Mailer;
}

/** Builds the whole app; never listens (start-server.ts does, tests use app.inject). */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            // Belt and braces: the default serializers log no headers or bodies, and these never appear.
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'password',
              '*.password',
              'access_token',
            ],
            serializers: { req: serializeLoggedRequest },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    // Below info no request line is written: Fastify then need not build the two it would discard
    // (lib/request-log.ts), nor a child logger per request only to carry a request id to the rare
    // error line, which names its request itself (plugins/error-handler.ts).
    ...(logsRequests(config.logLevel)
      ? {}
      : {
          logController: new ErrorsOnlyRequestLog(),
          childLoggerFactory: (logger: FastifyBaseLogger) => logger,
        }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Slow clients are cut off (config.ts); Node checks the deadlines every second, not every 30.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1_000 },
    // Answers made before any hook runs still carry the error shape and the security headers.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Numeric ids in URLs only; keep the router strict. Compiled: the routes are generated code
    // once all are registered, rather than a tree walked on every request.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100, compile: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log) : undefined;
  // A lost database never ends the process: requests that need it are answered 503 meanwhile.
  const outages = databaseOutageMonitor(deps.database.db, app.log);
  deps.database.onConnectionError?.((error) => outages.report(error));
  const ctx: AppContext = {
    config,
    db: deps.database.db,
    engine: deps.database.engine,
    changes: deps.database.changes,
    writes: writeTransactionsFor(deps.database, outages.writeSucceeded),
    clock: deps.clock ?? createClock(config.timezone),
    loginThrottle: createLoginThrottle(redis),
    resetThrottle: createResetThrottle(redis),
    securityNotices: createSecurityNotices(redis),
    outages,
    jobs: { kick: () => {} },
  };

  // Once shutdown has begun, an answer closes its connection: otherwise a keep-alive client (a load
  // balancer, a browser) holds app.close() open until its idle timeout, and the grace period ends
  // with a forced exit instead of a clean one. (Nothing a request wrote is acknowledged before it
  // is on disk: ctx.writes resolves only then, whatever the request's method; db/write-transactions.ts.)
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  // E-mail and other queued work (PRODUCT.md 3.8): in the background of a server; tests run it with app.runJobs().
  const jobWorker = createJobWorker(ctx, deps.mailer ?? createMailer(config), app.log, {
    background: deps.jobWorker ?? false,
    budget: createMailBudget(redis),
  });
  ctx.jobs = jobWorker;
  app.decorate('runJobs', () => jobWorker.runDue());
  app.decorate('runDailyWork', () => runDailyWork(ctx));
  const dailyWork = deps.dailyWork ? startDailyWork(ctx, app.log) : undefined;

  app.addHook('onClose', async () => {
    dailyWork?.stop();
    await jobWorker.stop();
    outages.close();
    await deps.database.close();
    if (redis) await closeRedis(redis);
  });

  registerErrorHandler(app, outages);
  registerTextInputGuard(app);

  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and the API docs viewer inject style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
  });
  registerRateLimit(app, { max: config.rateLimitMax, redis });
  registerAccessControl(app, ctx.db, ctx.changes);
  await app.register(fastifyFormbody);
  // No route reads plain text: a text/plain body is the wrong content type (415), not a string
  // that fails each route's schema (422).
  app.removeContentTypeParser('text/plain');
  await app.register(fastifyJwt, {
    secret: resolveJwtSecret(config),
    sign: { algorithm: 'HS256' },
    // Verified tokens are remembered by plugins/access.ts, until they expire.
    verify: { algorithms: ['HS256'] },
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Blood bank API',
        description: 'Donors, patients, per-unit inventory and the Blood Hero game.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // One plugin for the whole API, the modules called into it rather than registered: Fastify gives
  // each registered plugin request and reply classes of its own, so code every request runs
  // through would otherwise meet seven shapes of them and fall back to V8's slow property lookups.
  const modules = [
    systemRoutes,
    authRoutes,
    usersRoutes,
    requestsRoutes,
    donationsRoutes,
    gameRoutes,
    adminRoutes,
    deferralsRoutes,
    sitesRoutes,
    notificationsRoutes,
    calloutsRoutes,
    supplyRoutes,
  ];
  await app.register(
    async (api) => {
      for (const module of modules) await module(api, ctx);
    },
    { prefix: '/api' },
  );

  const servesWebApp = await registerWebApp(app, config.webDistDir);
  app.setNotFoundHandler((request, reply) => {
    if (servesWebApp && isSpaRequest(request.method, request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' });
  });

  return app;
}

/** Whether Fastify's per-request lines ("incoming request", "request completed", at info) are written. */
const logsRequests = (level: string) => ['trace', 'debug', 'info'].includes(level);
