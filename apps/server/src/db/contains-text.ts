import { sql, type RawBuilder } from 'kysely';

/**
 * `expression` contains `text`, in any case, on both engines: what staff type in a search box. `%`
 * and `_` typed are searched for literally, not as LIKE's wildcards. The text is put in NFC, the
 * form stored text is in (plugins/text-input.ts), whatever the searching keyboard typed.
 */
export function containsText(expression: RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  const pattern = `%${text.normalize('NFC').toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<boolean>`lower(${expression}) like ${pattern} escape '\\'`;
}
