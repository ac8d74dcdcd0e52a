import type { Engine } from './handle';

/**
 * A read that locks the rows it finds until the transaction ends, on PostgreSQL, where two
 * instances' transactions run side by side; SQLite's writes take turns and need no lock. FOR NO KEY
 * UPDATE is the lock an update of the row takes anyway: it waits for another write of the row, never
 * for one that only adds rows pointing at it (decision 0014).
 */
export const lockedOnPostgres = <Q extends { forNoKeyUpdate(): Q }>(query: Q, engine: Engine): Q =>
  engine === 'postgres' ? query.forNoKeyUpdate() : query;
