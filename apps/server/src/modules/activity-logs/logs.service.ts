import {
  LOG_COUNT_CAP,
  LOG_SEARCH_COUNT_CAP,
  LOG_CSV_COLUMNS,
  csvRow,
  dayEndExclusive,
  logDateRangeError,
  logDetailsText,
  type LogEntry,
  type LogFilter,
  type LogListQuery,
  type LogListResponse,
} from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { createVersionedCache, type ReadCacheOptions } from '../../lib/versioned-cache'
import { JsonAnswer, JsonText } from '../../lib/json-answer'
import { EXPORT_CHUNK_ROWS } from '../../lib/table-export'
import type { ActivityEntry, ActivityRepository, Actor } from './activity.repository'
import { logEntryFields } from './logs.fields'
import { dayStartOfRow, seekDay } from '../../lib/day-seek'
import {
  type EntriesJson,
  type ExportRow,
  type LogCursor,
  type LogKey,
  type LogRow,
  type LogsRepository,
  type LogSqlFilter,
  type SearchWay,
} from './logs.repository'
import {
  DAY_MS,
  SEARCH_SCAN_ROWS,
  SEARCH_SCAN_ROWS_SCATTERED,
  FIRST_SLICE_DAYS,
  SEARCH_TOTALS_KEPT,
  firstSpanAtRate,
  nextSpan,
  rowsBetween,
  searchTotalKey,
} from './logs.slices'

/** Rows per keyset query of the CSV export: about 280 kB of text; 5,000 grew the heap by 80 MB. */
export { EXPORT_CHUNK_ROWS }
export const TOO_MANY_FOR_GET_ALL = `More than ${LOG_COUNT_CAP.toLocaleString('en-US')} logs match these filters. Narrow the filters or use the CSV export.`

export interface ReaderContext {
  actor: Actor | null
  ip: string
}

type Log = { error(obj: unknown, msg: string): void }

/** docs/product-rules.md §3: the actor's name and email kept on the row; no user at all for a system row (logEntryFields). */
export function toLogEntry(row: LogRow): LogEntry {
  return logEntryFields.toObject(row)
}

/** docs/product-rules.md §7 columns: Timestamp, User Name, User Email, Action, Details, IP Address. */
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
 * docs/product-rules.md §5: startDate from 00:00 UTC, endDate to 23:59:59.999 UTC (both inclusive); end before
 * start, or a day that does not exist, is a 400 before any query runs.
 */
export function toSqlFilter(query: LogFilter): LogSqlFilter {
  const error = logDateRangeError(query.startDate, query.endDate)
  if (error) {
    // Named for the form and the API caller: the day that is not one, else the end.
    const field = query.startDate && logDateRangeError(query.startDate, null) ? 'startDate' : 'endDate'
    throw new AppError('RULE_VIOLATION', error, { details: [{ field, message: error }] })
  }
  const filter: LogSqlFilter = {}
  if (query.startDate) filter.from = new Date(`${query.startDate}T00:00:00.000Z`)
  // No bound after 9999-12-31, whose next midnight PostgreSQL cannot read.
  const before = query.endDate ? dayEndExclusive(query.endDate) : null
  if (before) filter.before = before
  if (query.userId) filter.userId = query.userId
  if (query.action) filter.action = query.action
  if (query.searchTerm?.trim()) filter.searchTerm = query.searchTerm.trim()
  return filter
}

/** The Activity Logs screen's reads (docs/product-rules.md §2, §7) and the streamed CSV export (docs/product-decisions.md D22). */
export function createLogsService(
  deps: { logs: LogsRepository; activity: ActivityRepository; log: Log },
  options: Pick<ReadCacheOptions, 'cache'> = {},
) {
  const { logs, activity, log } = deps
  // Matches gathered for a search's total, kept by searchTotalKey (none with READ_CACHE=false).
  const searchTotals = createVersionedCache<number>(options.cache === false ? 0 : SEARCH_TOTALS_KEPT)

  async function audit(ctx: ReaderContext, details: Record<string, unknown>) {
    await activity.record({ action: 'LOGS_EXPORTED', actor: ctx.actor, ipAddress: ctx.ip, details })
  }

  interface Page {
    entries: EntriesJson
    total: number
    capped: boolean
  }
  const NONE: EntriesJson = { entriesJson: '[]', rowCount: 0 }

  /**
   * Without a search: the total from the day counts the triggers keep (exact, read
   * from one row per day), and a deep page found by skipping whole days with them, so the index
   * is walked within one day at most. A user and an action together: counted on their index.
   */
  async function filteredPage(filter: LogSqlFilter, limit: number, offset: number): Promise<Page> {
    if (filter.userId && filter.action) {
      const [entries, counted] = await Promise.all([
        logs.page(filter, limit, offset),
        logs.countUpTo(filter, LOG_COUNT_CAP),
      ])
      return { entries, total: Math.min(counted, LOG_COUNT_CAP), capped: counted > LOG_COUNT_CAP }
    }
    const days = await logs.dayCounts(filter)
    const total = days.reduce((sum, d) => sum + d.rows, 0)
    if (offset >= total) return { entries: NONE, total, capped: false }
    const seek = seekDay(days, offset, filter.before)
    // The page's older end, from the same counts: the start of the day holding its last row, a
    // page further back so rows written since the counts were read cannot push a row out.
    const oldest = dayStartOfRow(days, offset + 2 * limit - 1)
    const bounded = oldest && (!filter.from || oldest > filter.from) ? { ...filter, from: oldest } : filter
    const entries = seek
      ? await logs.page({ ...bounded, before: seek.before }, limit, offset - seek.skipped)
      : await logs.page(bounded, limit, offset)
    return { entries, total, capped: false }
  }

  /**
   * A search, in slices of time back from the newest: each slice gives its matches
   * newest first, until LOG_SEARCH_COUNT_CAP + 1 of them or the filter's start. Those are both
   * the total (exact up to the cap, then shown as "N+") and the page, whose rows are then read by
   * key: the search is made once. A slice of few rows (the kept day counts say how many) is
   * scanned on the time index, comparing the stored text; a larger one is looked up in the
   * trigram index, whose cost grows with the month partitions it reaches and with the matches it
   * returns, not with the slice.
   *
   * The first slice is a day. Each next one is sized from the rate the term has matched so far
   * (nextSpan): to hold the matches still wanted with a quarter to spare, or the whole rest. A
   * name that is in one log row of a hundred then takes two or three slices rather than five,
   * the last of which fetched and sorted twice the matches it kept. A user and an action
   * together are sized by the user's day counts (the rows of that action are among them).
   *
   * The number of matches gathered is kept (searchTotalKey) while the log within the filters is
   * unchanged: the next page of the same search, or the same search again, gathers only the
   * matches up to its page's end, not the cap's worth (for a term in many rows, such as an IP
   * address, a row a table page each), for an exact number in a first slice sized from its rate
   * (firstSpanAtRate); a page past the total reads nothing.
   */
  async function searchPage(filter: LogSqlFilter, limit: number, offset: number): Promise<Page> {
    const { searchTerm: _term, ...others } = filter
    // A user's day counts also stand for the user's rows of one action: an upper bound of the
    // rows a slice holds, and a number that changes whenever one of them is written.
    const days = await logs.dayCounts(others)
    const key = searchTotalKey(filter, days)
    const known = searchTotals.get(key, 0)
    const cap = LOG_SEARCH_COUNT_CAP
    if (known !== undefined && offset >= Math.min(known, cap)) {
      return { entries: NONE, total: Math.min(known, cap), capped: known > cap }
    }
    const goal = known === undefined ? cap + 1 : Math.min(offset + limit, known)
    const scanLimit = others.userId || others.action ? SEARCH_SCAN_ROWS_SCATTERED : SEARCH_SCAN_ROWS
    const way = (rows: number): SearchWay => (rows <= scanLimit ? 'scan' : 'indexed')
    const first = filter.from?.getTime() ?? Number.NEGATIVE_INFINITY
    const end = (filter.before ?? new Date()).getTime()
    const found: LogKey[] = []
    let before = filter.before
    let searched = 0
    // A kept number past the cap says only that the term is common: its rate could be far higher,
    // and a slice sized from it far too large (a slice's matches are all fetched and sorted).
    let span: number | null =
      known !== undefined && known <= cap ? firstSpanAtRate(days, known, goal, before, end) : FIRST_SLICE_DAYS
    let whole = false
    for (;;) {
      const startMs: number = span === null ? first : Math.max(end - span * DAY_MS, first)
      const from: Date | undefined = Number.isFinite(startMs) ? new Date(startMs) : undefined
      const rows = rowsBetween(days, from, before)
      if (rows > 0) {
        found.push(...(await logs.matches({ ...filter, from, before }, goal - found.length, way(rows))))
      }
      if (found.length >= goal) break
      if (span === null || startMs <= first) {
        whole = true
        break
      }
      before = from
      searched += rows
      span = nextSpan(days, span, found.length, searched, before, end, goal)
    }
    // Fewer than a kept number found in the whole range: the log changed between reading its
    // counts and searching it, and what was found is the total now.
    const matched = known === undefined || whole ? found.length : known
    if (known === undefined || whole) searchTotals.set(key, 0, matched)
    const total = Math.min(matched, cap)
    const capped = matched > cap
    if (offset >= total) return { entries: NONE, total, capped }
    return { entries: await logs.byKeys(found.slice(offset, Math.min(offset + limit, total))), total, capped }
  }

  return {
    async list(query: LogListQuery, ctx: ReaderContext): Promise<JsonAnswer<LogListResponse>> {
      const filter = toSqlFilter(query)
      if (query.getAll) {
        const total = await logs.countUpTo(filter, LOG_COUNT_CAP)
        if (total > LOG_COUNT_CAP) throw new AppError('RULE_VIOLATION', TOO_MANY_FOR_GET_ALL)
        const entries = await logs.page(filter, LOG_COUNT_CAP, 0)
        const rows = entries.rowCount
        await audit(ctx, { format: 'json', filters: filtersOf(query), rowCount: rows, completed: true })
        return new JsonAnswer<LogListResponse>({
          logs: new JsonText(entries.entriesJson),
          currentPage: 1,
          totalPages: rows > 0 ? 1 : 0,
          totalLogs: rows,
          totalLogsCapped: false,
        })
      }
      const offset = (query.page - 1) * query.limit
      const { entries, total, capped } = filter.searchTerm
        ? await searchPage(filter, query.limit, offset)
        : await filteredPage(filter, query.limit, offset)
      // The entries come written as JSON by PostgreSQL (logs.repository.ts entriesJsonSql).
      return new JsonAnswer<LogListResponse>({
        logs: new JsonText(entries.entriesJson),
        currentPage: query.page,
        totalPages: Math.ceil(total / query.limit),
        totalLogs: total,
        totalLogsCapped: capped,
      })
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

    /** A row the browser reported (UI events, navigation): user and IP stamped by the route. */
    async record(entry: ActivityEntry): Promise<void> {
      await activity.record(entry)
    },

    async recentOfUser(userId: string, limit = 20): Promise<LogEntry[]> {
      return (await logs.recentOfUser(userId, limit)).map(toLogEntry)
    },
  }
}
export type LogsService = ReturnType<typeof createLogsService>
