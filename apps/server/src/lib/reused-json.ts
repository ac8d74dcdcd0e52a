import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { askerOf, type VersionedCache } from '../db/change-versions';

/**
 * A reused answer's JSON, encoded once, and the same compressed with gzip, made the first time a
 * client that accepts it asks (every browser does). Kept encoded: a string would be encoded to
 * UTF-8 again, and measured, for every answer (about 2 µs for an admin page of 8 KB).
 */
export class ReusedJson {
  #gzipped: Buffer | undefined;
  constructor(readonly bytes: Buffer) {}

  /** Whether sending it compressed is worth a header: under a kilobyte, the bytes saved do not pay for it. */
  get compressible(): boolean {
    return this.bytes.length >= COMPRESS_FROM_BYTES;
  }

  /**
   * Compressed once per answer, on the server's thread: 20 to 110 µs for 1 to 10 KB, where sending
   * an admin page of 10 KB instead of 1.2 KB cost every request about 15 µs more (docs/performance.md).
   */
  gzipped(): Buffer {
    // In memory of its own: gzipSync answers a slice of zlib's 16 KB output chunk, which a kept
    // answer would hold whole (5,000 kept answers: 80 MB instead of about 3).
    return (this.#gzipped ??= ownCopy(zlib.gzipSync(this.bytes)));
  }
}

/** The answers' caches: one per route and its tables (createVersionedCache). */
export type ReusedAnswers = VersionedCache<ReusedJson>;

/** The size from which a reused answer is sent compressed to a client that accepts it (@fastify/compress's default threshold). */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends a route's answer as JSON from a VersionedCache: computed and serialized through the
 * route's response schema once, then the same bytes for as long as nothing it read has changed,
 * compressed when the answer is large enough and the client accepts gzip.
 *
 * For the reads of GET routes only: the answer reuses the request's session check's read of the
 * change counters (ChangeWatch.versionOf), which a request that wrote must not.
 *
 * Synchronous when the answer is ready (the route handler must then return undefined, not the
 * reply): a reused answer is sent in the same turn as its request, with no promise in between.
 * Otherwise a promise that settles once the computed answer has been sent.
 *
 * (Compressing answers that carry private data is safe here from attacks that guess them by the
 * compressed size, such as BREACH: those need a victim's browser to send credentials by itself,
 * a cookie, with text the attacker chose, while the API takes only a bearer token the web app sets.)
 */
export function sendReusedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: ReusedAnswers,
  key: string | number,
  compute: () => Promise<unknown>,
): Promise<void> | undefined {
  // A read has written nothing: the counters read for its session check serves its answer too.
  const answer = cache.get(key, async () => new ReusedJson(ownBytes(String(reply.serialize(await compute())))), askerOf(request));
  if (!(answer instanceof Promise)) {
    sendJson(request, reply, answer);
    return undefined;
  }
  return answer.then(async (computed) => {
    sendJson(request, reply, computed);
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

/** The same bytes in memory of their own (see ownBytes). */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** Accept-Encoding headers already read: clients send one of a handful, the same on every request. */
const ACCEPT_ENCODINGS_KEPT = 64;
const acceptsGzip = (() => {
  const seen = new Map<string, string>();
  // Bounded: a client sending a new header each time must not grow the server's memory.
  const cache = {
    get: (header: string) => seen.get(header),
    has: (header: string) => seen.has(header),
    set(header: string, value: string) {
      if (seen.size >= ACCEPT_ENCODINGS_KEPT) seen.clear();
      seen.set(header, value);
      return cache;
    },
  };
  const negotiator = new Negotiator({ supportedValues: ['gzip'], cache });
  return (header: string | undefined) => {
    if (header === undefined) return false;
    // Encodings are case-insensitive, and an explicit "gzip;q=0" refuses gzip even beside "*"
    // (RFC 9110 12.5.3), which the negotiator reads otherwise.
    const lowered = header.toLowerCase();
    return !REFUSES_GZIP.test(lowered) && negotiator.negotiate(lowered) === 'gzip';
  };
})();
const REFUSES_GZIP = /(?:^|,)\s*gzip\s*;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:,|$)/;

function sendJson(request: FastifyRequest, reply: FastifyReply, answer: ReusedJson): void {
  reply.type('application/json; charset=utf-8');
  if (!answer.compressible) {
    reply.send(answer.bytes);
    return;
  }
  // The answer's form depends on the request's Accept-Encoding, compressed or not (RFC 9110 12.5.5).
  reply.header('vary', 'accept-encoding');
  if (acceptsGzip(request.headers['accept-encoding'])) reply.header('content-encoding', 'gzip').send(answer.gzipped());
  else reply.send(answer.bytes);
}
