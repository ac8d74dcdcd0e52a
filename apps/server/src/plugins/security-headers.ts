import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Security headers on every response, computed once.
 *
 * - Pages and files (the web app, the API docs viewer): helmet's headers. Registered as a plugin,
 *   @fastify/helmet builds helmet's middleware again for every request (parsing the
 *   Content-Security-Policy directives each time), yet they depend only on the options: so they
 *   are taken once from the plugin itself, run on a probe instance, and set as constants.
 * - JSON API answers: exactly the set OWASP's REST Security Cheat Sheet gives for APIs (no-store,
 *   frame-ancestors 'none', nosniff, DENY, HSTS). A JSON answer is never rendered as a page, so
 *   the document headers (script and style sources, referrer and cross-origin policies, DNS
 *   prefetch…) protect nothing there, and sessions are bearer tokens, never cookies a cross-origin
 *   read could carry. Each header costs the server and every client a line to write and to parse,
 *   on every answer: the benchmark's bare server lost 18% of its throughput to seven of them.
 *
 * Set by an onRequest hook in the same place the plugin's hook ran (before the rate limiter, so
 * refusals carry them too).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const documentHeaders = await helmetHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? API_HEADERS : documentHeaders);
    done();
  });
}

export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = async (withHelmet: boolean) => {
    const app = Fastify({ logger: false });
    if (withHelmet) await app.register(fastifyHelmet, options);
    app.get('/', async () => 'probe');
    const response = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    return response.headers;
  };
  const [plain, secured] = [await probe(false), await probe(true)];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(secured)) {
    if (name in plain || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
