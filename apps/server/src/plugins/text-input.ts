import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { invalidFields } from '../errors';
import { hookList } from './route-hooks';

export const NUL_CHARACTER_MESSAGE = 'Text must not contain the NUL character';

/**
 * No text this product stores or looks up can contain U+0000: PostgreSQL refuses it outright (a
 * 500 from deep inside a query), and SQLite would keep it. Checked once for every route that
 * takes input, after the body is parsed and validated (multipart fields included), so each field
 * need not repeat it.
 *
 * A lone UTF-16 surrogate (JSON's "\ud800") is not a character: it becomes U+FFFD here, as it
 * would had the client sent UTF-8. Otherwise SQLite stored its three raw bytes and gave back three
 * U+FFFD.
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  const guard: preHandlerHookHandler = (request, _reply, done) => {
    // HTTP refuses a raw NUL in the request line, so the query and the path parameters can only
    // hold one sent as %00: without that in the URL they need no walk (most requests are reads).
    const sources = request.url.includes('%00') ? (['body', 'query', 'params'] as const) : (['body'] as const);
    for (const source of sources) {
      const field = pathOfNul(request[source]);
      if (field !== undefined) return done(invalidFields({ [field || source]: NUL_CHARACTER_MESSAGE }));
    }
    if (typeof request.body === 'string') request.body = wellFormed(request.body);
    else replaceLoneSurrogates(request.body);
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
    route.preHandler = [guard, ...hookList(route.preHandler)];
  });
}

/**
 * The dotted path of the first string holding a NUL, '' for the value itself, undefined when none
 * (the path is only put together for a string that has one).
 */
function pathOfNul(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : undefined;
  if (typeof value !== 'object' || value === null || depth > 8) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const found = pathOfNul(record[key], depth + 1);
    if (found !== undefined) return found ? `${key}.${found}` : key;
  }
  return undefined;
}

/** The text with each lone surrogate replaced by U+FFFD (the same text when there is none). */
const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());

/** Replaces lone surrogates in every string of a parsed body, in place. */
function replaceLoneSurrogates(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 8) return;
  // Parsed JSON, form and multipart fields are plain objects and arrays; never walk a Buffer or a file.
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = record[key];
    if (typeof child === 'string') record[key] = wellFormed(child);
    else replaceLoneSurrogates(child, depth + 1);
  }
}
