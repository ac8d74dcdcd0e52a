import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../../context';
import type { DatabaseOrTransaction } from '../../db/database';
import { listUnitsAfter } from '../inventory/inventory.repository';
import { isExpiredUnit } from '../inventory/inventory.service';
import { listDonationsWithDonorsAfter } from '../donations/donations.repository';
import { listRequestsWithPatientsAfter } from '../requests/request-decisions.repository';
import { fullNameOf } from '../users/users.service';
import { bankTimeWriter } from './calendar';
import { csvLine, type CsvValue } from './csv';

export const EXPORTS = ['donations', 'requests', 'units'] as const;
export type ExportName = (typeof EXPORTS)[number];

/**
 * Rows read a chunk at a time. A year's 100,000 donations read and written in one go held the
 * server for 1.7 s (every other request waited: SQLite reads on the server's thread); a chunk
 * takes a few milliseconds, and other requests run between chunks.
 */
export const EXPORT_CHUNK_ROWS = 1_000;

/** What a row's cells are written with: the bank's today, and its wall-clock time for instants. */
interface ExportClock {
  today: string;
  time: (instant: string | null) => string | null;
}

interface ExportTable<Row extends { id: number }> {
  header: readonly string[];
  read: (db: DatabaseOrTransaction, afterId: number, limit: number) => Promise<Row[]>;
  cells: (row: Row, clock: ExportClock) => CsvValue[];
}

const donations: ExportTable<Awaited<ReturnType<typeof listDonationsWithDonorsAfter>>[number]> = {
  // outcome_reason: why a screening deferred it (each failed measurement), why staff's action
  // cancelled it, or why it was discarded; what the screen shows beside the status.
  // (Last, so the columns of spreadsheets made from earlier exports stay where they were.)
  header: ['id', 'donor_id', 'donor_username', 'donor_name', 'bloodgroup', 'units', 'donation_date', 'health_condition', 'last_donation', 'status', 'rejection_reason', 'decided_at', 'collected_on', 'created_at', 'outcome_reason'],
  read: listDonationsWithDonorsAfter,
  cells: (row, { time }) => [
    row.id,
    row.donor_id,
    row.username,
    fullNameOf(row),
    row.bloodgroup,
    row.units,
    row.donation_date,
    row.disease,
    row.last_donation,
    row.status,
    row.rejection_reason,
    time(row.decided_at),
    row.collected_on,
    time(row.created_at),
    row.outcome_reason,
  ],
};

const requests: ExportTable<Awaited<ReturnType<typeof listRequestsWithPatientsAfter>>[number]> = {
  header: ['id', 'patient_id', 'patient_username', 'patient_name', 'bloodgroup', 'component', 'units', 'required_date', 'doctorname', 'hospital_address', 'reason', 'status', 'rejection_reason', 'issued_bloodgroup', 'decided_at', 'created_at'],
  read: listRequestsWithPatientsAfter,
  cells: (row, { time }) => [
    row.id,
    row.patient_id,
    row.username,
    fullNameOf(row),
    row.bloodgroup,
    row.component,
    row.units,
    row.required_date,
    row.doctorname,
    row.hospital_address,
    row.reason,
    row.status,
    row.rejection_reason,
    row.issued_bloodgroup,
    time(row.decided_at),
    time(row.created_at),
  ],
};

const units: ExportTable<Awaited<ReturnType<typeof listUnitsAfter>>[number]> = {
  header: ['id', 'bloodgroup', 'component', 'parent_unit_id', 'source', 'donation_id', 'collected_on', 'expires_on', 'status', 'hold_reason', 'expired', 'request_id', 'issued_at', 'discarded_at', 'discard_reason', 'created_at'],
  read: listUnitsAfter,
  cells: (row, { today, time }) => [
    row.id,
    row.bloodgroup,
    row.component,
    row.parent_unit_id,
    row.source,
    row.donation_id,
    row.collected_on,
    row.expires_on,
    row.status,
    row.hold_reason,
    isExpiredUnit(row, today) ? 'yes' : 'no',
    row.request_id,
    time(row.issued_at),
    time(row.discarded_at),
    row.discard_reason,
    time(row.created_at),
  ],
};

/**
 * The file's text, a chunk of rows at a time, by id (each row once); the first chunk holds the
 * header, and is read before anything is sent (buildExport).
 */
const UTF8_BOM = '\uFEFF';

async function* csvChunks<Row extends { id: number }>(ctx: AppContext, table: ExportTable<Row>): AsyncGenerator<string> {
  const clock: ExportClock = { today: ctx.clock.today(), time: bankTimeWriter(ctx.config.timezone) };
  // A byte order mark first: without it Excel reads the file in the Windows code page, and a name
  // in Devanagari or Tamil comes out as mojibake. Spreadsheets and CSV readers take it as the encoding.
  let header = UTF8_BOM + csvLine(table.header);
  let afterId = 0;
  for (;;) {
    const rows = await table.read(ctx.db, afterId, EXPORT_CHUNK_ROWS);
    yield header + rows.map((row) => csvLine(table.cells(row, clock))).join('');
    header = '';
    if (rows.length < EXPORT_CHUNK_ROWS) return;
    afterId = rows.at(-1)!.id;
    await nextTurn();
  }
}

const chunksOf: Record<ExportName, (ctx: AppContext) => AsyncGenerator<string>> = {
  donations: (ctx) => csvChunks(ctx, donations),
  requests: (ctx) => csvChunks(ctx, requests),
  units: (ctx) => csvChunks(ctx, units),
};

/**
 * The file (streamed, a chunk of rows at a time) and the name it downloads under (dated, so exports
 * of different days do not collide). The first chunk is read here, before the answer's status is
 * sent: a database that is away answers 503 with its message, not a 200 with a cut-off file.
 */
export async function buildExport(ctx: AppContext, name: ExportName): Promise<{ filename: string; chunks: AsyncGenerator<string> }> {
  const chunks = chunksOf[name](ctx);
  const first = await chunks.next();
  async function* fromFirst(): AsyncGenerator<string> {
    if (!first.done) yield first.value;
    yield* chunks;
  }
  return { filename: `${name}-${ctx.clock.today()}.csv`, chunks: fromFirst() };
}
