import fs from 'node:fs';

/** Files that hold personal data are readable and writable by the server's user only (PRODUCT.md 3.9). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `file` exist with mode 600, and brings an existing one (and `companions`, where they exist)
 * down to it: an install made before this rule had its database created 644. SQLite creates its
 * journal, -wal and -shm files with the mode of the database file, so creating that one private
 * keeps them private too.
 */
export function ensurePrivateFile(file: string, companions: readonly string[] = []): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const each of [file, ...companions]) {
    try {
      fs.chmodSync(each, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
