import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Helmet's security headers on every response, computed once.
 *
 * Registered as a plugin, @fastify/helmet builds helmet's middleware again for every request
 * (parsing the Content-Security-Policy directives each time): measured at about 8% of the CPU of a
 * small authenticated request. The headers depend only on the options, never on the request, so
 * they are taken once from the plugin itself, run on a probe instance, and set as constants by an
 * onRequest hook in the same place the plugin's hook ran (before the rate limiter, so refusals
 * carry them too). The options stay helmet's, and the headers are exactly the plugin's.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

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
