import { describe, expect, it } from 'vitest';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer';

describe('response serializer', () => {
  const serialize = responseSerializerCompiler({
    schema: z.object({ id: z.number().int(), username: z.string(), note: z.string().nullable() }),
    method: 'GET',
    url: '/api/example',
    httpStatus: '200',
  });

  it('writes only what the schema declares', () => {
    const json = serialize({ id: 7, username: 'asha', note: null, password_hash: '$argon2id$secret' });
    expect(JSON.parse(json)).toEqual({ id: 7, username: 'asha', note: null });
    expect(json).not.toContain('argon2');
  });

  it('refuses an answer that does not match its schema, naming the route', () => {
    let thrown: unknown;
    try {
      serialize({ id: 'seven', username: 'asha', note: null });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
    expect((thrown as Error & { url: string }).url).toBe('/api/example');
  });

  it('refuses, at startup, a response schema that would change the answer instead of checking it', () => {
    for (const schema of [
      z.object({ note: z.string().default('none') }),
      z.array(z.object({ id: z.number().transform(String) })),
      z.object({ nested: z.union([z.string(), z.object({ at: z.string().catch('') })]) }),
    ]) {
      expect(() => responseSerializerCompiler({ schema, method: 'GET', url: '/api/example', httpStatus: '200' })).toThrow(
        /must be plain data/,
      );
    }
  });
});
