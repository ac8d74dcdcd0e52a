import type { FastifyReply } from 'fastify';
import type { VersionedCache } from '../db/change-versions';

/**
 * Sends a route's answer as JSON from a VersionedCache: computed and serialized through the
 * route's response schema once, then the same bytes for as long as nothing it read has changed.
 * Kept encoded: a string would be encoded to UTF-8 again, and measured, for every answer (about
 * 2 µs for an admin page of 8 KB).
 *
 * Synchronous when the answer is ready (the route handler must then return undefined, not the
 * reply): a reused answer is sent in the same turn as its request, with no promise in between.
 * Otherwise a promise that settles once the computed answer has been sent.
 */
export function sendReusedJson(
  reply: FastifyReply,
  cache: VersionedCache<Buffer>,
  key: string | number,
  compute: () => Promise<unknown>,
): Promise<void> | undefined {
  const json = cache.get(key, async () => ownBytes(String(reply.serialize(await compute()))));
  if (!(json instanceof Promise)) {
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

/**
 * A text's UTF-8 bytes in memory of their own: Buffer.from carves a small text from a shared 8 KB
 * slab, which a kept answer would then hold whole, however short it is.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  // Never send memory that was not written (allocUnsafeSlow does not clear it).
  if (bytes.write(text) !== bytes.length) throw new Error('The answer was not encoded whole');
  return bytes;
}

function sendJson(reply: FastifyReply, json: Buffer): void {
  reply.type('application/json; charset=utf-8').send(json);
}
