import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A running server marks its DATA_DIR with a file, `server-<host>-<pid>.pid`, one per instance. The
 * commands that need the database to themselves (npm run restore, npm run seed:demo) look for a live
 * one: asking HOST:PORT alone missed a server started with another PORT, and a restore under it lost
 * every write the server acknowledged afterwards.
 *
 * A mark names its host and its process's start time (Linux: /proc), so a process id reused after a
 * crash or a reboot (a container's server is often process 1) is not taken for the server; a mark
 * of this host whose process is gone is removed. A mark of another host (a DATA_DIR shared with
 * other machines) cannot be checked from here: it is taken for a running server, and the refusal
 * names its file, to delete when that server is known to be gone (docs/decisions/0029).
 */
const MARK_NAME = /^server-.+\.pid$/;

interface Mark {
  host: string;
  pid: number;
  /** The process's start, in clock ticks since boot (/proc/<pid>/stat); null where /proc is not. */
  started: number | null;
}

export interface ServerMark extends Mark {
  file: string;
}

const thisHost = () => os.hostname();

/** When process `pid` started, or null when it does not exist or /proc cannot say. */
function processStart(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name, in parentheses, may hold spaces: the fields after it are counted from its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const started = Number(fields[19]);
    return Number.isFinite(started) ? started : null;
  } catch {
    return null;
  }
}

/** Writes the mark of process `pid` of this host (the server's own; tests mark others). */
export function writeMark(dataDir: string, pid: number): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const host = thisHost();
  const file = path.join(dataDir, `server-${host.replace(/[^\w.-]/g, '_')}-${pid}.pid`);
  const mark: Mark = { host, pid, started: processStart(pid) };
  fs.writeFileSync(file, `${JSON.stringify(mark)}\n`, { mode: 0o600 });
  return file;
}

/** Marks the folder as used by this process; the function returned removes the mark. */
export function markDataDirInUse(dataDir: string): () => void {
  const file = writeMark(dataDir, process.pid);
  return () => fs.rmSync(file, { force: true });
}

/** The servers using this folder: live ones of this host, and every one of other hosts. Stale marks of this host are removed. */
export function serversUsingDataDir(dataDir: string): ServerMark[] {
  let names: string[];
  try {
    names = fs.readdirSync(dataDir);
  } catch {
    return [];
  }
  const found: ServerMark[] = [];
  for (const name of names) {
    if (!MARK_NAME.test(name)) continue;
    const file = path.join(dataDir, name);
    const mark = readMark(file);
    if (!mark) continue;
    if (mark.host === thisHost() && mark.pid === process.pid) continue;
    if (mark.host !== thisHost() || isRunning(mark)) found.push({ ...mark, file });
    else fs.rmSync(file, { force: true });
  }
  return found;
}

function readMark(file: string): Mark | null {
  try {
    const mark = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Mark>;
    if (typeof mark.host !== 'string' || typeof mark.pid !== 'number') return null;
    return { host: mark.host, pid: mark.pid, started: typeof mark.started === 'number' ? mark.started : null };
  } catch {
    return null;
  }
}

/** The marked process is alive, and is the one that wrote the mark (not a later one given its id). */
function isRunning(mark: Mark): boolean {
  try {
    process.kill(mark.pid, 0);
  } catch (error) {
    // EPERM: alive, and another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return mark.started === null || processStart(mark.pid) === mark.started;
}
