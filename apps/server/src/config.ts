import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { DEFAULT_LOW_STOCK_THRESHOLD, DONATION_INTERVAL_DAYS } from '@bloodbank/shared/constants';
import { DEFAULT_SHELF_LIFE_DAYS, type Component } from '@bloodbank/shared/components';
import { DEFAULT_SCREENING_THRESHOLDS, type ScreeningThresholds } from '@bloodbank/shared/donation-lifecycle';
import { DEFAULT_SUPPLY_CRITICAL_UNITS } from '@bloodbank/shared/supply';
import { ContactPhoneSchema, EXAMPLE_CONTACT, type Contact } from '@bloodbank/shared/contact';

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
  // Shelf life of each component (PRODUCT.md 3.3), in days from collection.
  WHOLE_BLOOD_SHELF_LIFE_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SHELF_LIFE_DAYS.whole_blood),
  RED_CELLS_SHELF_LIFE_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SHELF_LIFE_DAYS.red_cells),
  PLASMA_SHELF_LIFE_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SHELF_LIFE_DAYS.plasma),
  PLATELETS_SHELF_LIFE_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SHELF_LIFE_DAYS.platelets),
  // Replaced by the per-component settings above; named here only to say so at start.
  UNIT_SHELF_LIFE_DAYS: optionalText,
  LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_LOW_STOCK_THRESHOLD),
  // The public supply (PRODUCT.md 3.8): fewer red-cell units than this is Critical, fewer than LOW_STOCK_THRESHOLD Low.
  SUPPLY_CRITICAL_UNITS: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_SUPPLY_CRITICAL_UNITS),
  DONATION_INTERVAL_DAYS: z.coerce.number().int().min(1).max(365).default(DONATION_INTERVAL_DAYS),
  SCREENING_DEFERRAL_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_SCREENING_THRESHOLDS.deferral_days),
  // Screening thresholds (PRODUCT.md 3.2): a donor passes when every value lies within them.
  SCREENING_MIN_HAEMOGLOBIN_G_DL: z.coerce.number().min(5).max(20).default(DEFAULT_SCREENING_THRESHOLDS.haemoglobin_min_g_dl),
  SCREENING_MIN_WEIGHT_KG: z.coerce.number().min(20).max(200).default(DEFAULT_SCREENING_THRESHOLDS.weight_min_kg),
  SCREENING_SYSTOLIC_MIN: z.coerce.number().int().min(50).max(300).default(DEFAULT_SCREENING_THRESHOLDS.bp_systolic_min),
  SCREENING_SYSTOLIC_MAX: z.coerce.number().int().min(50).max(300).default(DEFAULT_SCREENING_THRESHOLDS.bp_systolic_max),
  SCREENING_DIASTOLIC_MIN: z.coerce.number().int().min(20).max(200).default(DEFAULT_SCREENING_THRESHOLDS.bp_diastolic_min),
  SCREENING_DIASTOLIC_MAX: z.coerce.number().int().min(20).max(200).default(DEFAULT_SCREENING_THRESHOLDS.bp_diastolic_max),
  SCREENING_PULSE_MIN: z.coerce.number().int().min(20).max(250).default(DEFAULT_SCREENING_THRESHOLDS.pulse_min),
  SCREENING_PULSE_MAX: z.coerce.number().int().min(20).max(250).default(DEFAULT_SCREENING_THRESHOLDS.pulse_max),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1000),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(65),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_DIST_DIR: optionalText,
  // E-mail (PRODUCT.md 3.8): over SMTP when SMTP_URL is set, else written to <DATA_DIR>/outbox/.
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  // One sender: "Blood Bank" alone sent mail with no From header, "no-reply@" failed every message.
  MAIL_FROM: z
    .string()
    .trim()
    .refine(isOneMailbox, 'must be one e-mail address, with or without a name: Blood Bank <no-reply@bank.example.org>')
    .default('Blood Bank <no-reply@bloodbank.local>'),
  // The bank's public contact details: the footer of every page and of every e-mail.
  BANK_PHONE: ContactPhoneSchema.default(EXAMPLE_CONTACT.phone),
  BANK_EMAIL: z.string().trim().pipe(z.email('must be an e-mail address')).default(EXAMPLE_CONTACT.email),
  // Where links in e-mails point (the address people open the app at); default http://localhost:PORT.
  PUBLIC_URL: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
      .optional(),
  ),
});

/** One address, `name <local@domain.tld>` or `local@domain.tld`, as nodemailer reads a sender. */
function isOneMailbox(value: string): boolean {
  const senders = addressparser(value, { flatten: true });
  return senders.length === 1 && /^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$/.test(senders[0]!.address);
}

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
  /** Days each component keeps after collection. */
  shelfLifeDays: Record<Component, number>;
  lowStockThreshold: number;
  /** A group with fewer red-cell units is Critical on the public supply; never above lowStockThreshold. */
  supplyCriticalUnits: number;
  /** Days from a collected donation to the next booking (PRODUCT.md 3.2). */
  donationIntervalDays: number;
  /** Screening thresholds and the length of the deferral a failed screening sets. */
  screening: ScreeningThresholds;
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
  /** smtp(s)://user:pass@host:port, or undefined: messages are written to <dataDir>/outbox/ as .eml files. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address people open the app at, without a trailing slash: links in e-mails start with it. */
  publicUrl: string;
  /** The bank's public phone and e-mail (the footer of the app and of every e-mail). */
  contact: Omit<Contact, 'time_zone'>;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
  }
}

/**
 * Settings whose value is or may hold a secret: a refused one is not printed back (the start's
 * output goes to logs). An address is refused precisely when it is malformed, and then no rule can
 * tell its password from the rest ("app:S3cret@db/bank", "host=db password=S3cret").
 */
const SECRET_SETTINGS = new Set(['JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL']);

/** A refused value as the start's error shows it: a secret by its length only. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return 'nothing';
  if (SECRET_SETTINGS.has(name)) return `a value of ${value.length} characters, not shown`;
  return JSON.stringify(value);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Said with the other problems, not only once they are fixed: every problem at one start.
  const renamed =
    env.UNIT_SHELF_LIFE_DAYS?.trim()
      ? ['UNIT_SHELF_LIFE_DAYS: replaced by RED_CELLS_SHELF_LIFE_DAYS (and WHOLE_BLOOD_, PLASMA_, PLATELETS_SHELF_LIFE_DAYS)']
      : [];
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError([
      ...parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${issue.path.join('.')}: ${issue.message} (got ${shownValue(name, env[name])})`;
      }),
      ...renamed,
    ]);
  }
  const values = parsed.data;
  const inverted = (
    [
      ['SCREENING_SYSTOLIC_MIN', 'SCREENING_SYSTOLIC_MAX'],
      ['SCREENING_DIASTOLIC_MIN', 'SCREENING_DIASTOLIC_MAX'],
      ['SCREENING_PULSE_MIN', 'SCREENING_PULSE_MAX'],
    ] as const
  ).filter(([min, max]) => values[min] > values[max]);
  const problems = inverted.map(([min, max]) => `${min} (${values[min]}) must not be above ${max} (${values[max]})`);
  if (values.SUPPLY_CRITICAL_UNITS > values.LOW_STOCK_THRESHOLD) {
    problems.push(
      `SUPPLY_CRITICAL_UNITS (${values.SUPPLY_CRITICAL_UNITS}) must not be above LOW_STOCK_THRESHOLD (${values.LOW_STOCK_THRESHOLD})`,
    );
  }
  problems.push(...renamed);
  if (problems.length > 0) throw new ConfigError(problems);
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
    shelfLifeDays: {
      whole_blood: values.WHOLE_BLOOD_SHELF_LIFE_DAYS,
      red_cells: values.RED_CELLS_SHELF_LIFE_DAYS,
      plasma: values.PLASMA_SHELF_LIFE_DAYS,
      platelets: values.PLATELETS_SHELF_LIFE_DAYS,
    },
    lowStockThreshold: values.LOW_STOCK_THRESHOLD,
    supplyCriticalUnits: values.SUPPLY_CRITICAL_UNITS,
    donationIntervalDays: values.DONATION_INTERVAL_DAYS,
    screening: {
      haemoglobin_min_g_dl: values.SCREENING_MIN_HAEMOGLOBIN_G_DL,
      weight_min_kg: values.SCREENING_MIN_WEIGHT_KG,
      bp_systolic_min: values.SCREENING_SYSTOLIC_MIN,
      bp_systolic_max: values.SCREENING_SYSTOLIC_MAX,
      bp_diastolic_min: values.SCREENING_DIASTOLIC_MIN,
      bp_diastolic_max: values.SCREENING_DIASTOLIC_MAX,
      pulse_min: values.SCREENING_PULSE_MIN,
      pulse_max: values.SCREENING_PULSE_MAX,
      deferral_days: values.SCREENING_DEFERRAL_DAYS,
    },
    rateLimitMax: values.RATE_LIMIT_MAX,
    requestTimeoutMs: values.REQUEST_TIMEOUT_SECONDS * 1000,
    // Node requires the headers' deadline to be no later than the whole request's.
    headersTimeoutMs: Math.min(values.HEADERS_TIMEOUT_SECONDS, values.REQUEST_TIMEOUT_SECONDS) * 1000,
    keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    trustProxy: values.TRUST_PROXY === 'true',
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? defaultWebDistDir()),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    contact: { phone: values.BANK_PHONE, email: values.BANK_EMAIL },
  };
}

/**
 * What the operator should hear at start about settings left at their defaults where it shows to
 * the bank's people: example contact details in every footer and e-mail, and, once e-mail really
 * goes out (SMTP_URL), links to this machine's localhost and a sender at bloodbank.local.
 */
export function configWarnings(config: Config, env: Record<string, string | undefined> = process.env): string[] {
  const warnings: string[] = [];
  if (config.contact.phone === EXAMPLE_CONTACT.phone || config.contact.email === EXAMPLE_CONTACT.email) {
    warnings.push("BANK_PHONE or BANK_EMAIL is not set: the footer and every e-mail show example contact details, not the bank's");
  }
  if (config.smtpUrl && !env.PUBLIC_URL?.trim()) {
    warnings.push(`PUBLIC_URL is not set: the links in e-mails (password reset, bookings) point to ${config.publicUrl}, which no reader can open`);
  }
  if (config.smtpUrl && !env.MAIL_FROM?.trim()) {
    warnings.push(`MAIL_FROM is not set: e-mails are sent from ${config.mailFrom}, an address no one can answer and many mail servers refuse`);
  }
  return warnings;
}

/** apps/web/dist, found from this file whether it runs from src (tsx) or from the bundled dist. */
function defaultWebDistDir(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}
