// The reference: the fastest thing Node does on this machine, a bare Fastify server answering a
// constant JSON route. The benchmark drives it with the same load as the real server, in the
// same run, and reports every endpoint as a ratio of its requests per second.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port, host: '127.0.0.1' });
process.send?.({ address });
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
