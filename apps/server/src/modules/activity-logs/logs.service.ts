import {
  LOG_COUNT_CAP,
  LOG_CSV_COLUMNS,
  csvRow,
  logDateRangeError,
  logDetailsText,
  type LogEntry,
  type LogFilter,
  type LogListQuery,
  type LogListResponse,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { recordActivity, type Actor } from './activity.repository'
import { createLogsRepository, type ExportRow, type LogCursor, type LogRow, type LogSqlFilter } from './logs.repository'

const DAY_MS = 86_400_000
/** Rows per keyset query of the CSV export: about 280 kB of text; 5,000 grew the heap by 80 MB. */
export const EXPORT_CHUNK_ROWS = 2_000

export const TOO_MANY_FOR_GET_ALL = `More than ${LOG_COUNT_CAP.toLocaleString('en-US')} logs match these filters. Narrow the filters or use the CSV export.`

export interface ReaderContext {
  actor: Actor | null
  ip: string
}

type Log = { error(obj: unknown, msg: string): void }

/** SPEC §3: the actor's name and email kept on the row; no user at all for a system row. */
export function toLogEntry(row: LogRow): LogEntry {
  const hasUser = row.userId !== null || row.actorName !== null || row.actorEmail !== null
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    details: row.details ?? null,
    ipAddress: row.ipAddress,
    user: hasUser ? { id: row.userId, name: row.actorName, email: row.actorEmail } : null,
  }
}

/** SPEC §7 columns: Timestamp, User Name, User Email, Action, Details, IP Address. */
function csvLine(row: ExportRow): string {
  const details = logDetailsText(row.details)
  return csvRow([row.createdAt, row.actorName, row.actorEmail, row.action, details, row.ipAddress])
}

/** The filters as the query gave them, empty ones left out: what LOGS_EXPORTED records. */
function filtersOf(query: LogFilter): Record<string, string> {
  const { startDate, endDate, userId, action, searchTerm } = query
  const all = { startDate, endDate, userId, action, searchTerm: searchTerm?.trim() }
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v)) as Record<string, string>
}

/**
 * SPEC §5: startDate from 00:00 UTC, endDate to 23:59:59.999 UTC (both inclusive); end before
 * start, or a day that does not exist, is a 400 before any query runs.
 */
export function toSqlFilter(query: LogFilter): LogSqlFilter {
  const error = logDateRangeError(query.startDate, query.endDate)
  if (error) throw new AppError('RULE_VIOLATION', error)
  const filter: LogSqlFilter = {}
  if (query.startDate) filter.from = new Date(`${query.startDate}T00:00:00.000Z`)
  if (query.endDate) filter.before = new Date(new Date(`${query.endDate}T00:00:00.000Z`).getTime() + DAY_MS)
  if (query.userId) filter.userId = query.userId
  if (query.action) filter.action = query.action
  if (query.searchTerm?.trim()) filter.searchTerm = query.searchTerm.trim()
  return filter
}

/** The Activity Logs screen's reads (SPEC §2, §7) and the streamed CSV export (DECISIONS.md). */
export function createLogsService(db: Db, log: Log) {
  const logs = createLogsRepository(db)

  async function audit(ctx: ReaderContext, details: Record<string, unknown>) {
    await recordActivity(db, { action: 'LOGS_EXPORTED', actor: ctx.actor, ipAddress: ctx.ip, details })
  }

  return {
    async list(query: LogListQuery, ctx: ReaderContext): Promise<LogListResponse> {
      const filter = toSqlFilter(query)
      if (query.getAll) {
        const total = await logs.countUpTo(filter, LOG_COUNT_CAP)
        if (total > LOG_COUNT_CAP) throw new AppError('RULE_VIOLATION', TOO_MANY_FOR_GET_ALL)
        const rows = await logs.page(filter, LOG_COUNT_CAP, 0)
        await audit(ctx, { format: 'json', filters: filtersOf(query), rowCount: rows.length, completed: true })
        return {
          logs: rows.map(toLogEntry),
          currentPage: 1,
          totalPages: rows.length > 0 ? 1 : 0,
          totalLogs: rows.length,
          totalLogsCapped: false,
        }
      }
      const [rows, counted] = await Promise.all([
        logs.page(filter, query.limit, (query.page - 1) * query.limit),
        logs.countUpTo(filter, LOG_COUNT_CAP),
      ])
      const totalLogs = Math.min(counted, LOG_COUNT_CAP)
      return {
        logs: rows.map(toLogEntry),
        currentPage: query.page,
        totalPages: Math.ceil(totalLogs / query.limit),
        totalLogs,
        totalLogsCapped: counted > LOG_COUNT_CAP,
      }
    },

    /**
     * The export as CSV text, one chunk of EXPORT_CHUNK_ROWS rows at a time, pulled by the
     * response stream only as fast as the client reads (keyset pages over (created_at, id), so
     * memory stays flat at any size). Filters are checked now, before a byte is sent.
     * LOGS_EXPORTED is written when the stream ends, with the rows sent and whether the
     * client received them all (an aborted download is recorded too).
     */
    exportCsv(query: LogFilter, ctx: ReaderContext): AsyncGenerator<string> {
      const filter = toSqlFilter(query)
      async function* lines() {
        let rowCount = 0
        let completed = false
        try {
          yield csvRow(LOG_CSV_COLUMNS)
          let cursor: LogCursor | null = null
          for (;;) {
            const chunk = await logs.chunk(filter, cursor, EXPORT_CHUNK_ROWS)
            if (chunk.length === 0) break
            let text = ''
            for (const row of chunk) text += csvLine(row)
            rowCount += chunk.length
            yield text
            if (chunk.length < EXPORT_CHUNK_ROWS) break
            const last = chunk[chunk.length - 1]!
            cursor = { createdAt: last.cursorAt, id: last.id }
          }
          completed = true
        } finally {
          await audit(ctx, { format: 'csv', filters: filtersOf(query), rowCount, completed }).catch((error: unknown) =>
            log.error({ err: error }, 'could not record LOGS_EXPORTED'),
          )
        }
      }
      return lines()
    },

    async recentOfUser(userId: string, limit = 20): Promise<LogEntry[]> {
      return (await logs.recentOfUser(userId, limit)).map(toLogEntry)
    },
  }
}
export type LogsService = ReturnType<typeof createLogsService>
