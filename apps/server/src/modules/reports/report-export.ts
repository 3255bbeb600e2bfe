import {
  REPORT_EXPORT_COLUMNS,
  formatDuration,
  reportExportBaseName,
  type ExportFormat,
  type ReportExportQuery,
} from '@portal/shared'
import { audited, givenFilters, recordExport, type ExportContext, type ExportRecorder } from '../../lib/export-audit'
import { exportChunkRows, exportFile, readAhead, type ExportFile, type ExportTable } from '../../lib/table-export'
import type { Viewer } from '../../lib/viewer'
import type { DispatchesService } from '../dispatches/dispatches.service'
import type { Cursor, ExportRow, RegistrationFilter, ReportsRepository } from './reports.repository'
import { reportFilterOf } from './reports.service'

type Log = { error(obj: unknown, msg: string): void }

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
export function createReportExportService(deps: {
  reports: ReportsRepository
  dispatches: DispatchesService
  activity: ExportRecorder
  log: Log
}) {
  const { reports, dispatches, activity, log } = deps
  async function chunk(
    filter: RegistrationFilter,
    cursor: Cursor | null,
    limit: number,
    walk: boolean,
  ): Promise<Chunk> {
    const walked = await reports.exportChunk(filter, cursor, limit, walk)
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
      // givenFilters keeps the text filters; the repeat-learners switch is named when on.
      const filters = { ...givenFilters(query), ...(query.repeatLearners ? { repeatLearners: 'true' } : {}) }
      const details = { report: 'completion', dispatchId, format, filters }
      const rows = audited(
        () => chunks(filter, exportChunkRows(format)),
        (rowCount, completed) => recordExport(activity, log, ctx, { ...details, rowCount, completed }),
      )
      const table = reportExportTable(row.destinationName || row.destinationId, row.courseTitle || row.courseId)
      return exportFile(format, table, await readAhead(rows))
    },
  }
}
export type ReportExportService = ReturnType<typeof createReportExportService>
