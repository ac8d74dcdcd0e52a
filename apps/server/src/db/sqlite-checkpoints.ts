import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's log (WAL) is copied back into the database file by checkpoints. Left to SQLite, one runs
 * inside the commit that pushes the log past 1,000 pages, on the server's only thread: it copies
 * the pages and flushes the database file while every request waits. Here the server's connection
 * never checkpoints (wal_autocheckpoint = 0); a worker thread with a connection of its own runs a
 * PASSIVE checkpoint (it waits for nobody and nobody waits for it) a moment after writes, so the
 * copying and the flush happen beside the requests. Once a checkpoint has caught up, the next
 * commit starts the log from its beginning again, so the file stays the size of a few batches.
 */

// CommonJS, evaluated in the worker: the driver is loaded from the path the server itself resolves.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
// The log is flushed before its pages are copied, and the database file after (NORMAL, in WAL mode).
db.pragma('synchronous = NORMAL');
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.postMessage({ stopped: true });
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ done: true });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

/** How long after a write the checkpoint runs (writes arriving meanwhile share it). */
const CHECKPOINT_DELAY_MS = 200;

export interface BackgroundCheckpoints {
  /** A commit was written: checkpoint soon. */
  wrote(): void;
  stop(): Promise<void>;
}

/** `report`: a checkpoint's error, or undefined once one has succeeded. */
export function backgroundCheckpoints(file: string, report: (error: string | undefined) => void): BackgroundCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
  worker.unref();
  // Made at once, so that a second stop(), or a stop() after the worker died, finds it settled: an
  // 'exit' listener added after the exit would wait forever (the seed's exit code 13).
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = () => {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    worker.postMessage('checkpoint');
  };
  worker.on('message', (message: { done?: true; error?: string; stopped?: true }) => {
    if (message.stopped) return;
    running = false;
    report(message.error);
    if (again) {
      again = false;
      timer ??= setTimeout(run, CHECKPOINT_DELAY_MS).unref();
    }
  });
  worker.on('error', (error) => report(error.message));
  return {
    wrote() {
      if (stopped) return;
      timer ??= setTimeout(run, CHECKPOINT_DELAY_MS).unref();
    },
    stop: async () => {
      if (!stopped) {
        stopped = true;
        if (timer) clearTimeout(timer);
        // Unreferenced, the worker would not keep the process alive until it has closed its connection.
        worker.ref();
        worker.postMessage('stop');
      }
      await exited;
    },
  };
}
