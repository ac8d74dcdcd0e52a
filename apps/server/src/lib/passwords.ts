import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** argon2id with the OWASP minimums (19 MiB, 2 passes, 1 lane). 2 is Algorithm.Argon2id (a const enum). */
const ARGON2ID_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes at once: one per core, and always one of libuv's threads left free. Each holds 19 MiB
 * and a core for about 15 ms; more at once finish no sooner, only add memory (a sign-in rush took
 * the server past 300 MB with four), and would take every thread the group commit flushes the
 * SQLite log with, so that writes waited for sign-ins to be acknowledged.
 */
const LIBUV_THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const HASHES_AT_ONCE = Math.max(1, Math.min(os.availableParallelism(), LIBUV_THREADS - 1));
const hashing = pLimit(HASHES_AT_ONCE);
/** Hashes running and waiting for their turn (tests, and a look at a sign-in rush). */
export const hashesInFlight = () => ({ running: hashing.activeCount, waiting: hashing.pendingCount });

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, ARGON2ID_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the same time as a real verification, so an unknown username cannot be told apart from a
 * wrong password by how long the answer takes.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-just-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
