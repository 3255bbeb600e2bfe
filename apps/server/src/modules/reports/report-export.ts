import { and, asc, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import {
  REPORT_EXPORT_COLUMNS,
  formatDuration,
  reportExportBaseName,
  type ExportFormat,
  type ReportExportQuery,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { registration } from '../../db/schema'
import { exportChunkRows, exportFile, readAhead, type ExportFile, type ExportTable } from '../../lib/table-export'
import { recordActivity, type Actor } from '../activity-logs/activity.repository'
import type { Viewer } from '../../lib/viewer'
import type { DispatchesService } from '../dispatches/dispatches.service'
import {
  createReportsRepository,
  searchOf,
  whereOf,
  type RegistrationFilter,
  type RegistrationRow,
} from './reports.repository'
import { reportFilterOf } from './reports.service'

/** Who exported, for REPORT_EXPORTED. */
export interface ExportContext {
  actor: Actor | null
  ip: string
}

type Log = { error(obj: unknown, msg: string): void }

/** A report row with the dates the export adds. */
export type ExportRow = RegistrationRow & { firstAccessDate: Date | null; completedDate: Date | null }

/** A registration's progress columns (the export's, and a learner's registrations in the learner view). */
export const progressColumns = {
  completionStatus: registration.completionStatus,
  successStatus: registration.successStatus,
  scoreScaled: registration.scoreScaled,
  totalSecondsTracked: registration.totalSecondsTracked,
  firstAccessDate: registration.firstAccessDate,
  lastAccessDate: registration.lastAccessDate,
  completedDate: registration.completedDate,
}

/** Where the previous chunk ended, in the report's order (last access newest first, never last, then id). */
export type Cursor = { lastAccess: Date | null; id: string }

const COLUMN_KINDS: Record<(typeof REPORT_EXPORT_COLUMNS)[number], 'text' | 'number' | 'date'> = {
  'First Name': 'text',
  'Last Name': 'text',
  Email: 'text',
  'Completion Status': 'text',
  'Success Status': 'text',
  'Score (%)': 'number',
  'Time Tracked (s)': 'number',
  'Time Tracked': 'text',
  'First Access': 'date',
  'Last Access': 'date',
  'Completion Date': 'date',
}

/**
 * The completion report's table: score in percent (the provider's scaled score), time in whole
 * seconds; the file is named `<company> - <course> - completion report`.
 */
export function reportExportTable(companyName: string, courseTitle: string): ExportTable<ExportRow> {
  return {
    name: reportExportBaseName(companyName, courseTitle),
    sheetName: 'Completion report',
    columns: REPORT_EXPORT_COLUMNS.map((header) => ({ header, kind: COLUMN_KINDS[header] })),
    cells: (r) => [
      r.learnerFirstName,
      r.learnerLastName,
      r.learnerEmail,
      r.completionStatus,
      r.successStatus,
      r.scoreScaled,
      Math.round(r.totalSecondsTracked),
      formatDuration(r.totalSecondsTracked),
      r.firstAccessDate,
      r.lastAccessDate,
      r.completedDate,
    ],
  }
}

/** The filters as the caller gave them, empty ones left out: what REPORT_EXPORTED records. */
export function givenFilters(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([key, v]) => key !== 'format' && typeof v === 'string' && v.trim() !== '')
      .map(([key, v]) => [key, String(v).trim()]),
  )
}

/** REPORT_EXPORTED with what was sent; a failure to record it is logged, never thrown into the stream. */
export function recordExport(db: Db, log: Log, ctx: ExportContext, details: Record<string, unknown>) {
  return recordActivity(db, { action: 'REPORT_EXPORTED', actor: ctx.actor, ipAddress: ctx.ip, details }).catch(
    (error: unknown) => log.error({ err: error }, 'could not record REPORT_EXPORTED'),
  )
}

/**
 * Chunks of `table`'s rows, each read when the stream asks for it; REPORT_EXPORTED is written
 * when it ends, with the rows sent and whether all were (an aborted download is recorded too).
 */
export async function* audited<R>(
  read: () => AsyncGenerator<R[]>,
  done: (rowCount: number, completed: boolean) => Promise<unknown>,
): AsyncGenerator<R[]> {
  let rowCount = 0
  let completed = false
  try {
    for await (const chunk of read()) {
      rowCount += chunk.length
      yield chunk
    }
    completed = true
  } finally {
    await done(rowCount, completed)
  }
}

const chunkColumns = {
  id: registration.id,
  learnerFirstName: registration.learnerFirstName,
  learnerLastName: registration.learnerLastName,
  learnerEmail: registration.learnerEmail,
  ...progressColumns,
}

/**
 * The next `limit` rows of the report's order after `cursor`: the accessed rows newest first (no
 * cursor, or a cursor with a last access), else the never-accessed ones by id. Their ids are
 * walked in the order of registration_report_idx (its `desc nulls last`, which a plain `desc`
 * does not match: the planner then sorted every remaining row of the dispatch for each chunk, 33
 * to 45 ms a chunk at 100,000 rows), and only those rows are read by id.
 *
 * A search past the report's count cap (`walk`) walks the same rows as without it and keeps its
 * matches (`hit`): each chunk costs what an unsearched one does. (Taking such a search's next
 * matches directly sorted all its remaining matches for every chunk: a search matching all
 * 100,000 rows exported as .xlsx in 95 s.) A search within the cap takes its few matches from
 * the trigram index and sorts them, as the report's page does.
 */
export function reportChunkQuery(
  db: Db,
  filter: RegistrationFilter,
  cursor: Cursor | null,
  limit: number,
  walk = false,
) {
  const term = walk ? filter.search?.trim() : undefined
  const base = whereOf(term ? { ...filter, search: undefined } : filter)
  const accessed = !cursor || cursor.lastAccess !== null
  // One order for both parts: among the never-accessed rows, `last_access_date is null` does not
  // let the index give `order by id` alone (every remaining one was sorted, 5 ms a chunk for 9,000).
  const order = [sql`${registration.lastAccessDate} desc nulls last`, asc(registration.id)]
  const where = accessed
    ? and(
        base,
        isNotNull(registration.lastAccessDate),
        // The bound on last access is the index's range.
        ...(cursor?.lastAccess
          ? [
              lte(registration.lastAccessDate, cursor.lastAccess),
              or(lt(registration.lastAccessDate, cursor.lastAccess), gt(registration.id, cursor.id))!,
            ]
          : []),
      )
    : and(base, isNull(registration.lastAccessDate), gt(registration.id, cursor.id))
  const ids = db
    .select({
      id: sql<string>`${registration.id}`.as('chunk_id'),
      hit: (term ? sql<boolean>`${searchOf(term)}` : sql<boolean>`true`).as('chunk_hit'),
    })
    .from(registration)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .as('chunk')
  return db
    .select({ ...chunkColumns, hit: ids.hit })
    .from(ids)
    .innerJoin(registration, eq(registration.id, ids.id))
    .orderBy(...order)
}

/** A chunk: the rows of the filter, how many rows of the order it walked, and the last of those. */
interface Chunk {
  rows: ExportRow[]
  walked: number
  last: Cursor | null
}

/**
 * GET /api/reports/dispatch/{id}/export: every row of the report's filters, in its
 * order, read in keyset chunks over the report indexes (the accessed rows newest first, then
 * the never-accessed ones by id), so no chunk costs more than the first.
 */
export function createReportExportService(db: Db, dispatches: DispatchesService, log: Log) {
  const reports = createReportsRepository(db)
  async function chunk(
    filter: RegistrationFilter,
    cursor: Cursor | null,
    limit: number,
    walk: boolean,
  ): Promise<Chunk> {
    const walked = await reportChunkQuery(db, filter, cursor, limit, walk)
    const end = walked[walked.length - 1]
    const read: Chunk = {
      rows: walked.filter((row) => row.hit).map(({ hit: _hit, ...row }) => row),
      walked: walked.length,
      last: end ? { lastAccess: end.lastAccessDate, id: end.id } : null,
    }
    if ((cursor && !cursor.lastAccess) || walked.length === limit) return read
    // The accessed rows are all walked: the never-accessed ones follow, by id.
    const rest = await chunk(filter, { lastAccess: null, id: '' }, limit - walked.length, walk)
    return { rows: [...read.rows, ...rest.rows], walked: read.walked + rest.walked, last: rest.last ?? read.last }
  }

  async function* chunks(filter: RegistrationFilter, size: number): AsyncGenerator<ExportRow[]> {
    // A search's matches are counted as the report counts them: past the cap, the export walks.
    const walk = Boolean(filter.search?.trim()) && (await reports.totals(filter)).capped
    let cursor: Cursor | null = null
    for (;;) {
      const { rows, walked, last } = await chunk(filter, cursor, size, walk)
      if (rows.length > 0) yield rows
      if (walked < size || !last) return
      cursor = last
    }
  }

  return {
    /** Scope first (another company's dispatch is not found), then the filters, then the first chunk. */
    async exportDispatch(
      viewer: Viewer,
      ctx: ExportContext,
      dispatchId: string,
      query: ReportExportQuery,
    ): Promise<ExportFile> {
      const filter = reportFilterOf(dispatchId, query)
      const row = await dispatches.requireVisible(viewer, dispatchId)
      const format: ExportFormat = query.format
      const details = { report: 'completion', dispatchId, format, filters: givenFilters(query) }
      const rows = audited(
        () => chunks(filter, exportChunkRows(format)),
        (rowCount, completed) => recordExport(db, log, ctx, { ...details, rowCount, completed }),
      )
      const table = reportExportTable(row.destinationName || row.destinationId, row.courseTitle || row.courseId)
      return exportFile(format, table, await readAhead(rows))
    },
  }
}
export type ReportExportService = ReturnType<typeof createReportExportService>
