import type { FastifyReply } from 'fastify';
import type { VersionedCache } from '../db/change-versions';

/**
 * Sends a route's answer as JSON from a VersionedCache: computed and serialized through the
 * route's response schema once, then the same text for as long as nothing it read has changed.
 */
export async function sendReusedJson(
  reply: FastifyReply,
  cache: VersionedCache<string>,
  key: string | number,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const json = await cache.get(key, async () => String(reply.serialize(await compute())));
  return reply.type('application/json; charset=utf-8').send(json);
}
