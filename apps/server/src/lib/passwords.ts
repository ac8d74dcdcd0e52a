import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP minimums (19 MiB, 2 passes, 1 lane). 2 is Algorithm.Argon2id (a const enum). */
const ARGON2ID_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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
