import { sql, type RawBuilder } from 'kysely';
import type { Engine } from './handle';

/** What staff typed in a search box, and the engine it is looked for on. */
export interface TextSearch {
  text: string;
  engine: Engine;
}

/**
 * SQLite's own lower() folds A to Z only ("émile" would not find "Émile"); the server's SQLite
 * connection adds this function, which folds every letter, as PostgreSQL's lower() does (db/sqlite.ts).
 */
export const SQLITE_UNICODE_LOWER = 'unicode_lower';

/**
 * `expression` contains the typed text, in any case, on both engines. `%` and `_` typed are
 * searched for literally, not as LIKE's wildcards. The text is put in NFC, the form stored text is
 * in (plugins/text-input.ts), whatever the searching keyboard typed.
 */
export function containsText(expression: RawBuilder<unknown>, search: TextSearch): RawBuilder<boolean> {
  const term = search.text.normalize('NFC').toLowerCase();
  const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  // Text typed in ASCII can only match A to Z, which SQLite's lower() folds; it scans about three
  // times faster than a function that calls into JavaScript for every row.
  const lower = search.engine === 'sqlite' && /[^ -~]/.test(term) ? SQLITE_UNICODE_LOWER : 'lower';
  return sql<boolean>`${sql.raw(lower)}(${expression}) like ${pattern} escape '\\'`;
}
