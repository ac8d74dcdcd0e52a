import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LOW_STOCK_THRESHOLD, DEFAULT_UNIT_SHELF_LIFE_DAYS } from '@bloodbank/shared/constants';

/**
 * The only reader of process.env. Every variable is described in the README's configuration table.
 */
const DURATION_PATTERN = /^\d+[smhd]$/;

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL: z.string().trim().regex(DURATION_PATTERN, 'must look like 30m, 12h or 7d').default('12h'),
  ADMIN_USERNAME: optionalText,
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(6, 'must be at least 6 characters').optional()),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TIMEZONE: z
    .string()
    .trim()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as UTC or Asia/Kolkata'),
  UNIT_SHELF_LIFE_DAYS: z.coerce.number().int().min(1).max(365).default(DEFAULT_UNIT_SHELF_LIFE_DAYS),
  LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_LOW_STOCK_THRESHOLD),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1000),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(65),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_DIST_DIR: optionalText,
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  tokenTtl: string;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  timezone: string;
  unitShelfLifeDays: number;
  lowStockThreshold: number;
  /** Requests per minute per client address, across all routes. */
  rateLimitMax: number;
  /**
   * Slow clients are cut off (PRODUCT.md 3.9): a whole request (headers and body) must arrive within
   * requestTimeoutMs, its headers within headersTimeoutMs; an idle kept-alive connection is closed
   * after keepAliveTimeoutMs (above the 60 s idle timeout of common load balancers, so they close first).
   */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  trustProxy: boolean;
  /** The built web app; not served when the folder does not exist. */
  webDistDir: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(env[String(issue.path[0])])})`),
    );
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    jwtSecret: values.JWT_SECRET,
    tokenTtl: values.TOKEN_TTL,
    adminUsername: values.ADMIN_USERNAME,
    adminPassword: values.ADMIN_PASSWORD,
    redisUrl: values.REDIS_URL,
    logLevel: values.LOG_LEVEL,
    timezone: values.TIMEZONE,
    unitShelfLifeDays: values.UNIT_SHELF_LIFE_DAYS,
    lowStockThreshold: values.LOW_STOCK_THRESHOLD,
    rateLimitMax: values.RATE_LIMIT_MAX,
    requestTimeoutMs: values.REQUEST_TIMEOUT_SECONDS * 1000,
    // Node requires the headers' deadline to be no later than the whole request's.
    headersTimeoutMs: Math.min(values.HEADERS_TIMEOUT_SECONDS, values.REQUEST_TIMEOUT_SECONDS) * 1000,
    keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    trustProxy: values.TRUST_PROXY === 'true',
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? defaultWebDistDir()),
  };
}

/** apps/web/dist, found from this file whether it runs from src (tsx) or from the bundled dist. */
function defaultWebDistDir(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}
