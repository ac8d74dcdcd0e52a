import type { FastifyInstance, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import { invalidFields } from '../errors';
import { hookList } from './route-hooks';

export const CONTROL_CHARACTER_MESSAGE = 'Text must not contain control characters';

/**
 * U+0000 anywhere: PostgreSQL refuses it outright (a 500 from deep inside a query), and SQLite would
 * keep it. In what the product stores and shows to others, the other invisible characters too: the
 * C0 and C1 controls but tab, line feed and carriage return (a bell in a site's name reached donors'
 * calendar files, which RFC 5545 forbids), and the bidirectional overrides and isolates, which make
 * a name read backwards ("\u202eetiS" shows as "Site"). A password may hold any of these but NUL:
 * it is never shown, and refusing it could lock its owner out.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const NUL = /\u0000/;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/**
 * No control character (above) in any text of a request that takes input: checked once for every
 * route, after the body is parsed and validated (multipart fields included), so each field need
 * not repeat it. Before validation, the body's text is tidied (below).
 *
 * A lone UTF-16 surrogate (JSON's "\ud800") is not a character: it becomes U+FFFD here, as it
 * would had the client sent UTF-8. Otherwise SQLite stored its three raw bytes and gave back three
 * U+FFFD.
 *
 * Text is kept in one Unicode form (NFC), but a password, as it was typed: "José" or "ज़ैनब" typed
 * on another keyboard (an e and a combining accent, a letter and a nukta sign) is the same name,
 * and staff's search (which normalises what it is given too) finds it.
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  const guard: preHandlerHookHandler = (request, _reply, done) => {
    const inBody = pathOfControlCharacter(request.body);
    if (inBody !== undefined) return done(invalidFields({ [inBody || 'body']: CONTROL_CHARACTER_MESSAGE }));
    // The query and the path parameters are looked up, never stored: only NUL matters there, and
    // HTTP refuses a raw NUL in the request line, so only one sent as %00 (most requests are reads).
    if (request.url.includes('%00')) {
      for (const source of ['query', 'params'] as const) {
        const field = pathOfControlCharacter(request[source], { only: NUL });
        if (field !== undefined) return done(invalidFields({ [field || source]: CONTROL_CHARACTER_MESSAGE }));
      }
    }
    done();
  };
  // Before the body is validated, so the schema's limits count the text as it will be stored (NFC
  // can lengthen it: U+095B is two characters in NFC). After the route's own preValidation hooks,
  // which may be what reads the body (the registration's multipart fields).
  const tidyBody: preValidationHookHandler = (request, _reply, done) => {
    if (typeof request.body === 'string') request.body = tidy(request.body);
    else tidyStrings(request.body);
    done();
  };
  // Only where there is text to check: a GET with neither a query schema nor a path parameter
  // reads nothing from its caller but the session.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const readsNoInput =
      methods.every((method) => method === 'GET' || method === 'HEAD') &&
      route.schema?.querystring === undefined &&
      !route.url.includes(':');
    if (readsNoInput) return;
    route.preValidation = [...hookList(route.preValidation), tidyBody];
    route.preHandler = [guard, ...hookList(route.preHandler)];
  });
}

/**
 * The dotted path of the first string holding a control character, '' for the value itself,
 * undefined when none (the path is only put together for a string that has one). Under a key that
 * names a password, only NUL counts.
 */
function pathOfControlCharacter(value: unknown, { only = CONTROL_CHARACTERS, depth = 0 } = {}): string | undefined {
  if (typeof value === 'string') return only.test(value) ? '' : undefined;
  if (typeof value !== 'object' || value === null || depth > 8) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const found = pathOfControlCharacter(record[key], { only: /password/i.test(key) ? NUL : only, depth: depth + 1 });
    if (found !== undefined) return found ? `${key}.${found}` : key;
  }
  return undefined;
}

/** The text with each lone surrogate replaced by U+FFFD (the same text when there is none). */
const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());

/** Well formed, and in NFC unless it is a password. */
const tidy = (text: string, password = false) => (password ? wellFormed(text) : wellFormed(text).normalize('NFC'));

/** Tidies every string of a parsed body (above), in place. */
function tidyStrings(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 8) return;
  // Parsed JSON, form and multipart fields are plain objects and arrays; never walk a Buffer or a file.
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = record[key];
    if (typeof child === 'string') record[key] = tidy(child, /password/i.test(key));
    else tidyStrings(child, depth + 1);
  }
}
