import type { FastifyInstance } from 'fastify';
import { invalidFields } from '../errors';

export const NUL_CHARACTER_MESSAGE = 'Text must not contain the NUL character';

/**
 * No text this product stores or looks up can contain U+0000: PostgreSQL refuses it outright (a
 * 500 from deep inside a query), and SQLite would keep it. Checked once for every route, after the
 * body is parsed and validated (multipart fields included), so each field need not repeat it.
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    for (const [source, value] of [
      ['body', request.body],
      ['query', request.query],
      ['params', request.params],
    ] as const) {
      const field = pathOfNul(value, '');
      if (field !== undefined) return done(invalidFields({ [field || source]: NUL_CHARACTER_MESSAGE }));
    }
    done();
  });
}

/** The dotted path of the first string holding a NUL, '' for the value itself, undefined when none. */
function pathOfNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > 8) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = pathOfNul(child, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
