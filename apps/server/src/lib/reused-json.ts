import type { FastifyReply } from 'fastify';
import type { VersionedCache } from '../db/change-versions';

/**
 * Sends a route's answer as JSON from a VersionedCache: computed and serialized through the
 * route's response schema once, then the same bytes for as long as nothing it read has changed.
 * Kept as UTF-8 bytes, so the socket write does not encode the text again for every request.
 */
export async function sendReusedJson(
  reply: FastifyReply,
  cache: VersionedCache<Buffer>,
  key: string | number,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const json = await cache.get(key, async () => Buffer.from(String(reply.serialize(await compute()))));
  return reply.type('application/json; charset=utf-8').send(json);
}
