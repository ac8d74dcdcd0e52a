import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config';

describe('loadConfig: the screening thresholds (PRODUCT.md 3.2)', () => {
  it('defaults to the thresholds of PRODUCT.md', () => {
    expect(loadConfig({}).screening).toEqual({
      haemoglobin_min_g_dl: 12.5,
      weight_min_kg: 50,
      bp_systolic_min: 90,
      bp_systolic_max: 180,
      bp_diastolic_min: 50,
      bp_diastolic_max: 100,
      pulse_min: 50,
      pulse_max: 100,
      deferral_days: 30,
    });
    expect(loadConfig({}).donationIntervalDays).toBe(90);
  });

  it('reads each from the environment', () => {
    const config = loadConfig({ SCREENING_MIN_HAEMOGLOBIN_G_DL: '13', SCREENING_PULSE_MAX: '110', DONATION_INTERVAL_DAYS: '56' });
    expect(config.screening).toMatchObject({ haemoglobin_min_g_dl: 13, pulse_max: 110 });
    expect(config.donationIntervalDays).toBe(56);
  });

  it('refuses a range whose minimum is above its maximum, and a value that is not a number', () => {
    expect(() => loadConfig({ SCREENING_PULSE_MIN: '120' })).toThrow(
      new ConfigError(['SCREENING_PULSE_MIN (120) must not be above SCREENING_PULSE_MAX (100)']),
    );
    expect(() => loadConfig({ SCREENING_MIN_WEIGHT_KG: 'heavy' })).toThrow(ConfigError);
  });
});

describe("loadConfig: the bank's contact details (BANK_PHONE, BANK_EMAIL)", () => {
  it('reads them from the environment, trimmed, and falls back to the example ones', () => {
    expect(loadConfig({ BANK_PHONE: ' +44 20 7946 0018 ', BANK_EMAIL: 'donors@nhsbt.example.org' }).contact).toEqual({
      phone: '+44 20 7946 0018',
      email: 'donors@nhsbt.example.org',
    });
    expect(loadConfig({}).contact).toEqual({ phone: '+1 (555) 010-0199', email: 'help@bloodbank.example' });
  });

  it('refuses a phone that is not a number and an e-mail that is not an address, naming the variable', () => {
    for (const phone of ['call us', '+1 555', '0800<script>', '1'.repeat(31)]) {
      expect(() => loadConfig({ BANK_PHONE: phone }), phone).toThrow(/BANK_PHONE/);
    }
    expect(() => loadConfig({ BANK_EMAIL: 'help at bank' })).toThrow(/BANK_EMAIL: must be an e-mail address/);
  });
});

describe('configWarnings: defaults that would show to the bank\'s people', () => {
  const bank = { BANK_PHONE: '+91 20 2612 0000', BANK_EMAIL: 'help@bank.example.org' };
  const warningsFor = (env: Record<string, string>) => configWarnings(loadConfig(env), env);

  it('says nothing for a configured bank, or an install whose e-mail goes to the outbox folder', () => {
    expect(warningsFor(bank)).toEqual([]);
    expect(warningsFor({ ...bank, SMTP_URL: 'smtp://mail.example.org:587', PUBLIC_URL: 'https://bank.example.org', MAIL_FROM: 'Bank <no-reply@bank.example.org>' })).toEqual([]);
  });

  it('warns of example contact details, and of localhost links and the default sender once e-mail goes out', () => {
    expect(warningsFor({})).toEqual([
      "BANK_PHONE or BANK_EMAIL is not set: the footer and every e-mail show example contact details, not the bank's",
    ]);
    expect(warningsFor({ ...bank, SMTP_URL: 'smtp://mail.example.org:587', PORT: '8080' })).toEqual([
      'PUBLIC_URL is not set: the links in e-mails (password reset, bookings) point to http://localhost:8080, which no reader can open',
      'MAIL_FROM is not set: e-mails are sent from Blood Bank <no-reply@bloodbank.local>, an address no one can answer and many mail servers refuse',
    ]);
  });
});

describe('loadConfig: a refused value is shown without its secret', () => {
  it('names a secret, or an address that may hold one, by its length only', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short-secret-value' })).toThrow(
      new ConfigError(['JWT_SECRET: must be at least 32 characters (got a value of 18 characters, not shown)']),
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'abc12' })).toThrow(
      new ConfigError(['ADMIN_PASSWORD: must be at least 6 characters (got a value of 5 characters, not shown)']),
    );
    expect(() => loadConfig({ SMTP_URL: 'smpt://mailer:S3cretPass@mail.example.org:587' })).toThrow(
      new ConfigError(['SMTP_URL: must be an smtp:// or smtps:// URL (got a value of 45 characters, not shown)']),
    );
    for (const [name, value] of [
      ['DATABASE_URL', 'app:S3cret@db.internal/bloodbank'],
      ['DATABASE_URL', 'host=db user=app password=S3cret dbname=bloodbank'],
      ['REDIS_URL', 'redis//:S3cret@cache:6379'],
    ] as const) {
      expect(() => loadConfig({ [name]: value })).toThrow(/not shown/);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect(String(error)).not.toContain('S3cret');
      }
    }
    expect(() => loadConfig({ TIMEZONE: 'Mars/Olympus' })).toThrow(
      new ConfigError(['TIMEZONE: must be an IANA time zone such as UTC or Asia/Kolkata (got "Mars/Olympus")']),
    );
  });
});

describe('loadConfig: the sender of e-mails (MAIL_FROM)', () => {
  it('takes one address, with or without a name', () => {
    expect(loadConfig({ MAIL_FROM: 'Blood Bank <no-reply@bank.example.org>' }).mailFrom).toBe('Blood Bank <no-reply@bank.example.org>');
    expect(loadConfig({ MAIL_FROM: 'no-reply@bank.example.org' }).mailFrom).toBe('no-reply@bank.example.org');
    expect(loadConfig({ MAIL_FROM: '"रक्त कोष" <no-reply@bank.example.org>' }).mailFrom).toBe('"रक्त कोष" <no-reply@bank.example.org>');
  });

  it('refuses a name with no address, an address with no domain, and two senders', () => {
    // "Blood Bank" alone sent mail with no From header at all; "no-reply@" failed every message.
    for (const value of ['Blood Bank', 'no-reply@', 'Blood Bank <no-reply@localhost>', 'a@bank.example.org, b@bank.example.org']) {
      expect(() => loadConfig({ MAIL_FROM: value }), value).toThrow(
        `MAIL_FROM: must be one e-mail address, with or without a name: Blood Bank <no-reply@bank.example.org> (got ${JSON.stringify(value)})`,
      );
    }
  });
});

describe('loadConfig: every problem at one start', () => {
  it('names a renamed setting beside a value it refuses', () => {
    let refused: ConfigError | undefined;
    try {
      loadConfig({ UNIT_SHELF_LIFE_DAYS: '35', PLATELETS_SHELF_LIFE_DAYS: 'abc' });
    } catch (error) {
      refused = error as ConfigError;
    }
    expect(refused?.problems.map((line) => line.split(':')[0])).toEqual(['PLATELETS_SHELF_LIFE_DAYS', 'UNIT_SHELF_LIFE_DAYS']);
  });
});
