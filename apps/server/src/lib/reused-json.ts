import type { FastifyReply } from 'fastify';
import type { VersionedCache } from '../db/change-versions';

/**
 * Sends a route's answer as JSON from a VersionedCache: computed and serialized through the
 * route's response schema once, then the same text for as long as nothing it read has changed.
 *
 * Synchronous when the answer is ready (the route handler must then return undefined, not the
 * reply): a reused answer is sent in the same turn as its request, with no promise in between.
 * Otherwise a promise that settles once the computed answer has been sent.
 */
export function sendReusedJson(
  reply: FastifyReply,
  cache: VersionedCache<string>,
  key: string | number,
  compute: () => Promise<unknown>,
): Promise<void> | undefined {
  const json = cache.get(key, async () => String(reply.serialize(await compute())));
  if (typeof json === 'string') {
    sendJson(reply, json);
    return undefined;
  }
  return json.then(async (computed) => {
    sendJson(reply, computed);
    // Settles once the answer is out (a reply is thenable), so Fastify never sends again, even
    // should an onSend hook of a read ever wait for something.
    await reply;
  });
}

function sendJson(reply: FastifyReply, json: string): void {
  reply.type('application/json; charset=utf-8').send(json);
}
