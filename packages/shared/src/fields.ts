import { z } from 'zod';
import { BLOOD_GROUPS } from './blood-groups';
import { DATE_RANGE_MESSAGE, isSupportedIsoDate, isValidIsoDate } from './dates';

/**
 * Building blocks for the form schemas. Every message a user can see is passed in from the
 * contract files, so the wording of the spec lives next to the field it belongs to.
 */

/** Ids are PostgreSQL integers: a larger number names nothing, and must not reach a query (it would fail there). */
export const MAX_ROW_ID = 2_147_483_647;

/** An id in a path (`/donations/:id/cancel`): a whole number from 1, else 422 with words a person reads. */
export const ID_PARAM_MESSAGE = 'The id in the address must be a whole number from 1.';
export const IdParamsSchema = z.object({
  id: z.coerce
    .number({ error: ID_PARAM_MESSAGE })
    .int(ID_PARAM_MESSAGE)
    .positive(ID_PARAM_MESSAGE)
    .max(MAX_ROW_ID, ID_PARAM_MESSAGE),
});

/**
 * A string field's refusal before any check of its own: a missing value is "required", a value of
 * another type (a number or a list, from an API client) gets `wrongType`.
 */
export const missingOr =
  (requiredMessage: string, wrongType = 'Must be text') =>
  (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? requiredMessage : wrongType;

/** A trimmed, required string with a length cap. */
export function requiredText(requiredMessage: string, maxLength = 200) {
  return z
    .string({ error: missingOr(requiredMessage) })
    .trim()
    .min(1, requiredMessage)
    .max(maxLength, `Must be at most ${maxLength} characters`);
}

export const ONE_LINE_MESSAGE = 'Must be on one line';

/**
 * `requiredText` for a name (a person's, a doctor's, a site's): on one line, as its input is. A line
 * break put there through the API made a greeting read "Hello Ravi / Bcc: x@y.z," in an e-mail.
 */
export function requiredName(requiredMessage: string, maxLength = 100) {
  return requiredText(requiredMessage, maxLength).regex(/^[^\r\n]*$/, ONE_LINE_MESSAGE);
}

export const NOT_A_WEB_ADDRESS_MESSAGE = 'Please enter a name, not a web address';
/**
 * What mail programs turn into a link: a scheme ("https://"), "www.", or a domain ending in a common
 * top-level domain ("bank-login.example.com"). No one's name, and a name opens the bank's e-mails
 * ("Hello <first name>,"). Names with a dot stay names: "J. R.", "St.John", "Mohd.Irfan".
 */
const WEB_ADDRESS =
  /:\/\/|\bwww\.|[\p{L}\p{N}-]\.(com|net|org|info|biz|xyz|app|dev|page|site|online|link|club|shop|live|top|io|co|me|ly|gl|in|uk|us|ru|cn|de|tk)\b/iu;

/** The text as a mail program may read it: fullwidth "ｗｗｗ．" and "：／／" are "www." and "://". */
const looksLikeWebAddress = (text: string) => WEB_ADDRESS.test(text.normalize('NFKC'));
/**
 * A person's name (first or last), which the bank's e-mails greet people with: `requiredName`, and
 * nothing a mail program shows as a link (controls, direction overrides among them, are refused in
 * all text already).
 * Someone registering with a stranger's address made a real bank e-mail open with "Hello Your
 * account is locked - unlock it at https://…,", which mail programs show as a link.
 */
export function requiredPersonName(requiredMessage: string, maxLength = 100) {
  return requiredName(requiredMessage, maxLength).refine((name) => !looksLikeWebAddress(name), NOT_A_WEB_ADDRESS_MESSAGE);
}

const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A whole number; empty form inputs ('' / null / undefined) count as missing, numeric strings are read. */
export function requiredInteger(requiredMessage: string) {
  return z.preprocess(
    (value) => {
      if (value === null || value === undefined) return undefined;
      // Blank, spaces too, is missing: "is required", not "Please enter a number".
      if (typeof value === 'string' && value.trim() === '') return undefined;
      // Written as people write numbers: not "0x2" or "1e1", which Number() would also read.
      if (typeof value === 'string' && DECIMAL_NUMBER.test(value.trim())) return Number(value);
      return value;
    },
    z
      .number({ error: (issue) => (issue.input === undefined ? requiredMessage : 'Please enter a number') })
      .int('Please enter a whole number'),
  );
}

export function bloodGroupField(requiredMessage = 'Blood group is required') {
  return z.enum(BLOOD_GROUPS, {
    error: (issue) =>
      issue.input === undefined || issue.input === '' ? requiredMessage : 'Please choose a valid blood group',
  });
}

export function optionField<const T extends readonly [string, ...string[]]>(
  options: T,
  requiredMessage: string,
) {
  return z.enum(options, {
    error: (issue) =>
      issue.input === undefined || issue.input === '' ? requiredMessage : 'Please choose one of the options',
  });
}

const INVALID_DATE_MESSAGE = 'Please enter a valid date (YYYY-MM-DD)';

/** A `YYYY-MM-DD` calendar date that exists, between 1900-01-01 and 2100-12-31. */
export function isoDateField(requiredMessage: string) {
  return z
    .string({ error: missingOr(requiredMessage, INVALID_DATE_MESSAGE) })
    .trim()
    .min(1, requiredMessage)
    .refine(isValidIsoDate, { message: INVALID_DATE_MESSAGE, abort: true })
    .refine(isSupportedIsoDate, { message: DATE_RANGE_MESSAGE, abort: true });
}

/** "Today" is supplied by the caller: the browser's calendar day, or the blood bank's on the server. */
export type TodayProvider = () => string;

export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
export const MOBILE_PATTERN = /^\d{10}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
