import fs from 'node:fs';
import path from 'node:path';

/**
 * A running server marks its DATA_DIR with a file named by its process id, `server-<pid>.pid`
 * (one per instance). The commands that need the database to themselves (npm run restore,
 * npm run seed:demo) look for a live one: asking HOST:PORT alone missed a server started with
 * another PORT, and a restore under it lost every write the server acknowledged afterwards.
 */
const MARK_NAME = /^server-(\d+)\.pid$/;

/** Marks the folder as used by this process; the function returned removes the mark. */
export function markDataDirInUse(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, `server-${process.pid}.pid`);
  fs.writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => fs.rmSync(file, { force: true });
}

/** The process ids of the live servers using this folder. A mark a crashed server left is removed. */
export function serversUsingDataDir(dataDir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(dataDir);
  } catch {
    return [];
  }
  const live: number[] = [];
  for (const name of names) {
    const pid = Number(MARK_NAME.exec(name)?.[1] ?? 0);
    if (!pid || pid === process.pid) continue;
    if (processIsAlive(pid)) live.push(pid);
    else fs.rmSync(path.join(dataDir, name), { force: true });
  }
  return live;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
