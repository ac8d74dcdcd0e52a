import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the main thread's old space grow past what is alive before its next full
 * collection: here by half. Left to V8 the factor is chosen per collection, up to four times what
 * is alive when collections are quick; under the booking's load (requests wait for their batch's
 * commit, so their objects are promoted) the old space grew from 50-95 MB alive to 105-156 MB,
 * and the process peaked at 258 to 316 MB, past the 300 MB target (docs/performance.md,
 * "2026-11-27 (a fresh host, after "last")"). With 50% it peaked about 30 MB lower at the same
 * speed (docs/performance.md, "2026-11-27 (a bounded old space)").
 *
 * Set from inside the process, not as a node flag, so that every way of starting the server
 * (npm start, the benchmark, the browser tests, a container) has it: V8 reads the flag each time it
 * sets the next limit, after a collection, and it changes nothing else.
 */
export const HEAP_GROWING_PERCENT = 50;

setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
