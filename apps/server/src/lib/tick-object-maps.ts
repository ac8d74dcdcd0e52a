import { createHook } from 'node:async_hooks';

/**
 * Keeps one `process.nextTick` object alive for the life of the process, so that V8 never collects
 * the hidden classes (maps) of Node's tick objects. Imported first by server.ts: it must run
 * before the startup's garbage collections.
 *
 * Why: each request makes a dozen tick objects (Node's streams schedule their callbacks with
 * process.nextTick), each built by an object literal with computed keys
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 remembers, per
 * property, the map it last saw the literal at, and holds that map weakly. A full collection that
 * runs while no tick object exists frees the maps; the next tick builds new ones, and V8, having
 * seen the literal at two maps, gives up on it for the life of the process (megamorphic): from
 * then on every tick object is built in V8's runtime, property by property. This server's startup
 * (schemas, plugins, migrations) makes such a collection likely; a bare server's never does.
 *
 * Measured (decision 0005): a nextTick costs 300 ns in that state against 58 ns; a cached read
 * (GET /api/game/state) ran 144,000 instructions without this and 106,000 with it (callgrind).
 *
 * How: an async hook's `init` receives the tick object itself; the hook is enabled around one
 * nextTick and disabled at once. That has one lasting effect: enabling it installs V8's promise
 * hooks, which turns off for good V8's inlining of promise operations (its "promise hook
 * protector"), though no hook runs afterwards. Measured, that costs far less than what it saves:
 * the other way to reach a tick object, async_hooks.executionAsyncResource() inside a tick, keeps
 * the protector but makes Node hand every native callback's resource to JavaScript, and a cached
 * read then ran 111,600 instructions against 100,000 (decision 0005).
 */
function captureTickObject(): object | undefined {
  let captured: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') captured ??= resource;
    },
  });
  hook.enable();
  process.nextTick(doNothing);
  hook.disable();
  return captured;
}

const doNothing = () => {};

/**
 * Where the tick object is kept: a property of the global object, so that it stays reachable
 * whatever the bundler or V8 make of an unused module variable (V8 need not keep one alive).
 */
export const KEPT_TICK_OBJECT = Symbol.for('bloodbank.keptTickObject');

// Once per process, should this module ever be evaluated twice (a test resetting modules).
if (!(KEPT_TICK_OBJECT in globalThis)) {
  Object.defineProperty(globalThis, KEPT_TICK_OBJECT, { value: captureTickObject() });
}
