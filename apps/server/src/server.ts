// The process entry. V8's maps of process.nextTick objects are kept alive first, before any other
// module is loaded (lib/tick-object-maps.ts explains why); the server is loaded only then, which is
// why it is imported dynamically (and built as a file of its own: build.mjs).
import './lib/tick-object-maps';

await import('./start-server');
