import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { ActivityAction } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { activityLog, activityLogDay, activityLogUserDay } from '../../db/schema'
import { jsonArraySql, jsonArrayText } from '../../db/json-rows'
import { MIN_SUBSTRING_TERM, matchesTermMatch, termMatch, type TermMatch } from '../../db/search'
import { optionalValues, placeholders, queryRows, rowsOf, runStatement, statementCache } from '../../db/statement'
import { dayOf, type DayCount } from '../../lib/day-seek'
import { logEntryFields } from './logs.fields'

/** A log filter in database terms: a half-open UTC range [from, before) and exact matches. */
export interface LogSqlFilter {
  from?: Date
  before?: Date
  userId?: string
  action?: ActivityAction
  searchTerm?: string
}

/**
 * How a search is looked up: through the trigram index (`indexed`), or by the other conditions
 * (a slice of time) with the stored text compared row by row (`scan`).
 */
export type SearchWay = 'indexed' | 'scan'

export interface LogRow {
  id: number
  createdAt: Date
  userId: string | null
  actorName: string | null
  actorEmail: string | null
  action: string
  details: unknown
  ipAddress: string | null
}

/** A row of the CSV export: createdAt is the ISO text (toISOString's form), cursorAt full precision. */
export interface ExportRow {
  id: number
  cursorAt: string
  createdAt: string
  actorName: string | null
  actorEmail: string | null
  action: string
  details: unknown
  ipAddress: string | null
}

/** Where the next keyset chunk starts: the last row's created_at at full (microsecond) precision. */
export interface LogCursor {
  createdAt: string
  id: number
}

/** A row found by a search: its id and created_at at full (microsecond) precision, as text. */
export interface LogKey {
  id: number
  createdAt: string
}

const columns = {
  id: activityLog.id,
  createdAt: activityLog.createdAt,
  userId: activityLog.userId,
  actorName: activityLog.actorName,
  actorEmail: activityLog.actorEmail,
  action: activityLog.action,
  details: activityLog.details,
  ipAddress: activityLog.ipAddress,
}

/**
 * A filter as a statement reads it: its values, or placeholders for them in a statement kept for
 * reuse (db/statement.ts); which are given, and how the term matches, make its shape.
 */
interface LogInput {
  from?: unknown
  before?: unknown
  userId?: unknown
  action?: unknown
  search: TermMatch | null
  /** The term without its dots, for a term with a dot (dotlessTerm). */
  dotless: TermMatch | null
}

/**
 * Every condition uses a column of the (created_at, id), (action, …) or (user_id, …) indexes,
 * or, for a search, the stored lowercased search_text and its trigram index (migration 0014), or
 * for a term with a dot, the index of that text without its dots (migration 0019).
 */
function whereSql(input: LogInput, way: SearchWay = 'indexed'): SQL | undefined {
  const conditions: SQL[] = timeRange(input)
  if (input.userId !== undefined) conditions.push(eq(activityLog.userId, input.userId as string))
  if (input.action !== undefined) conditions.push(eq(activityLog.action, input.action as string))
  if (input.search) {
    const dotless = way === 'indexed' ? input.dotless : null
    if (dotless) {
      // Found through the index of the text without its dots (migration 0019), then the text
      // itself compared, unindexed: "ab.cd" must not find "abc.d".
      conditions.push(matchesTermMatch(sql`translate(${activityLog.searchText}, '.', '')`, dotless, { lowered: true }))
    }
    conditions.push(
      matchesTermMatch(sql`${activityLog.searchText}`, input.search, {
        lowered: true,
        indexed: way === 'indexed' && !dotless,
      }),
    )
  }
  return conditions.length ? and(...conditions) : undefined
}

/** The filter's half-open time range [from, before), as conditions on created_at. */
function timeRange(input: Pick<LogInput, 'from' | 'before'>): SQL[] {
  const conditions: SQL[] = []
  if (input.from !== undefined) conditions.push(gte(activityLog.createdAt, input.from as Date))
  if (input.before !== undefined) conditions.push(lt(activityLog.createdAt, input.before as Date))
  return conditions
}

/** A filter's condition with its values in it (the export's chunks). */
function whereOf(filter: LogSqlFilter, way: SearchWay = 'indexed'): SQL | undefined {
  const term = filter.searchTerm?.trim()
  const dotless = term ? dotlessTerm(term) : null
  return whereSql(
    { ...filter, search: term ? termMatch(term) : null, dotless: dotless ? termMatch(dotless) : null },
    way,
  )
}

/** The values of the log statements, as placeholders (db/statement.ts). */
const L = placeholders(
  'from',
  'before',
  'userId',
  'action',
  'pattern',
  'contains',
  'dotless',
  'limit',
  'offset',
  'ids',
  'newest',
  'oldest',
  'fromDay',
  'beforeDay',
)

/** A filter as a kept statement's input (placeholders), with its values and its shape's key. */
function inputOf(filter: LogSqlFilter) {
  const term = filter.searchTerm?.trim()
  const search = term ? termMatch(term) : null
  const dotlessText = term ? dotlessTerm(term) : null
  const dotless = dotlessText ? termMatch(dotlessText) : null
  const given = optionalValues(filter, L, ['from', 'before', 'userId', 'action'])
  const input: LogInput = {
    ...given.input,
    search: search && { kind: search.kind, pattern: L.pattern, contains: L.contains },
    dotless: dotless && { kind: dotless.kind, pattern: L.dotless },
  }
  const values = { ...given.values, pattern: search?.pattern, contains: search?.contains, dotless: dotless?.pattern }
  const shape = [...given.shape, search?.kind ?? '', dotless?.kind ?? '']
  return { input, values, shape }
}

/** Built log statements by shape (db/statement.ts). */
const statements = statementCache(500)

/**
 * Rows of activity_log (as "activity_log") as the JSON array of docs/product-rules.md §3 log entries the answer
 * carries, newest first, written by PostgreSQL (db/json-rows.ts) from logEntryFields: what
 * toLogEntry() gives for the same rows.
 */
const entriesJsonSql = jsonArraySql(
  logEntryFields.jsonSql(logEntryFields.view(), (column) => sql`${columns[column]}`),
  sql`${activityLog.createdAt} desc, ${activityLog.id} desc`,
)

/** Log entries written as JSON (entriesJsonSql), and how many. */
export interface EntriesJson {
  entriesJson: string
  rowCount: number
}

const toEntries = ([row]: Record<string, unknown>[]): EntriesJson => ({
  entriesJson: jsonArrayText(row?.entriesJson),
  rowCount: Number(row?.rowCount ?? 0),
})

/**
 * A term with a dot, without its dots, when that is still a substring search (3 characters or
 * more): IP addresses and e-mail addresses, whose parts pg_trgm would take one by one.
 * Containing the term implies containing it without dots, so the index finds every match.
 */
export function dotlessTerm(term: string): string | null {
  if (!term.includes('.')) return null
  const dotless = term.replaceAll('.', '')
  return dotless.length >= MIN_SUBSTRING_TERM ? dotless : null
}

/**
 * Newest first; id breaks ties so pages neither repeat nor skip rows. NULLS LAST (never null
 * here) spells out the order of the indexes (created_at DESC NULLS LAST, id DESC NULLS LAST):
 * a plain DESC means NULLS FIRST, which no index serves, and PostgreSQL then sorted all rows
 * instead of walking an index for the page.
 */
const newestFirst = [sql`${activityLog.createdAt} desc nulls last`, sql`${activityLog.id} desc nulls last`]

export function createLogsRepository(db: DbOrTx) {
  return {
    /**
     * One page. Deferred join: the offset is walked over an index alone (ids), and only the
     * page's rows are read from the table. `before` may narrow the range (the seek of a deep page
     * past whole days, logs.service.ts).
     *
     * Each page row is read by a primary-key look-up of its own (the lateral subquery, which its
     * `limit 1` keeps from being merged into a join), in the one month partition its created_at
     * names. As a plain join, the planner counts a look-up in every partition for each page row
     * and, on a log of up to some hundred thousand rows, read every partition whole into a hash
     * instead: ten times the time of the look-ups on PostgreSQL and fifty times on PGlite.
     */
    async page(filter: LogSqlFilter, limit: number, offset: number): Promise<EntriesJson> {
      const { input, values, shape } = inputOf(filter)
      const statement = statements.get(JSON.stringify(['page', ...shape]), () => {
        const ids = db
          .select({
            id: sql<number>`${activityLog.id}`.as('page_id'),
            at: sql<Date>`${activityLog.createdAt}`.as('page_at'),
          })
          .from(activityLog)
          .where(whereSql(input))
          .orderBy(...newestFirst)
          .limit(L.limit)
          .offset(L.offset)
          .as('page')
        // The filter's time range in the look-up too: the planner then leaves out the month
        // partitions outside it there as well (it cannot from the page's created_at alone).
        const lookUp = and(eq(activityLog.id, ids.id), eq(activityLog.createdAt, ids.at), ...timeRange(input))
        return sql`select ${entriesJsonSql} as "entriesJson", count(*) as "rowCount"
          from ${ids} cross join lateral (
            select * from ${activityLog} where ${lookUp} limit 1) as ${activityLog}`
      })
      return toEntries(await runStatement(db, statement, { ...values, limit, offset }))
    },

    /**
     * A search's matches within the filter's time range, newest first, at most `limit` (the
     * service asks each slice of time in turn): `scan` walks the time index newest first
     * and compares each row's text until it has `limit`; `indexed` finds every match of the range
     * through the trigram index and sorts them (the `offset 0` fence keeps the planner from walking
     * the time index instead, which for a rare term would read every row). The matches are both
     * the search's count and its page: no statement searches twice.
     */
    async matches(filter: LogSqlFilter, limit: number, way: SearchWay): Promise<LogKey[]> {
      const { input, values, shape } = inputOf(filter)
      const statement = statements.get(JSON.stringify(['matches', way, ...shape]), () => {
        const where = whereSql(input, way) ?? sql`true`
        const source =
          way === 'scan'
            ? sql`${activityLog} where ${where}`
            : sql`(select ${activityLog.id}, ${activityLog.createdAt} from ${activityLog} where ${where} offset 0) as ${activityLog}`
        return sql`
          select ${activityLog.id} as "id", ${activityLog.createdAt}::text as "createdAt"
          from ${source}
          order by ${sql.join(newestFirst, sql`, `)}
          limit ${L.limit}`
      })
      const rows = await runStatement(db, statement, { ...values, limit })
      return rows.map((row) => ({ id: Number(row.id), createdAt: row.createdAt as string }))
    },

    /** The rows of `keys` (matches of a search), newest first: a primary-key look-up each. */
    async byKeys(keys: LogKey[]): Promise<EntriesJson> {
      if (keys.length === 0) return { entriesJson: '[]', rowCount: 0 }
      // created_at bounds the partitions looked in; the keys come newest first.
      const statement = statements.get('byKeys', () => {
        const a = activityLog
        return sql`select ${entriesJsonSql} as "entriesJson", count(*) as "rowCount" from ${a}
          where ${a.id} = any(${sql.param(L.ids)}::bigint[])
            and ${a.createdAt} >= ${sql.param(L.oldest)}::timestamptz and ${a.createdAt} <= ${sql.param(L.newest)}::timestamptz`
      })
      const bounds = { oldest: keys[keys.length - 1]!.createdAt, newest: keys[0]!.createdAt }
      return toEntries(await runStatement(db, statement, { ids: keys.map((k) => k.id), ...bounds }))
    },

    /**
     * Matching rows per UTC day, newest first, from the counts kept by migration 0008's triggers.
     * With a user, the user's rows of every action: an unsearched page with a user and an action
     * is counted by countUpTo instead; a search uses them as an upper bound.
     */
    async dayCounts(filter: LogSqlFilter): Promise<DayCount[]> {
      const byUser = Boolean(filter.userId)
      const key = JSON.stringify(['days', byUser, Boolean(filter.from), Boolean(filter.before)])
      const statement = statements.get(key, () => {
        const t = byUser ? activityLogUserDay : activityLogDay
        const whose = byUser
          ? eq(activityLogUserDay.userId, L.userId as unknown as string)
          : eq(activityLogDay.action, L.action as unknown as string)
        // One text value ("2026-11-30:12,2026-11-29:40,…"), not a row a day: a year of days as
        // rows cost more in the driver (PGlite above all) than the read itself.
        return sql`select coalesce(string_agg(${t.day}::text || ':' || ${t.rows}, ',' order by ${t.day} desc), '') as "days"
          from ${t}
          where ${and(
            whose,
            filter.from ? gte(t.day, L.fromDay as unknown as string) : undefined,
            filter.before ? lt(t.day, L.beforeDay as unknown as string) : undefined,
            sql`${t.rows} <> 0`,
          )}`
      })
      const [row] = await runStatement(db, statement, {
        userId: filter.userId,
        action: filter.action ?? '*',
        fromDay: filter.from ? dayOf(filter.from) : undefined,
        beforeDay: filter.before ? dayOf(filter.before) : undefined,
      })
      const text = String(row?.days ?? '')
      if (text === '') return []
      return text.split(',').map((entry) => ({ day: entry.slice(0, 10), rows: Number(entry.slice(11)) }))
    },

    /**
     * The number of matching rows, counted up to `cap + 1` and no further: exact below the cap,
     * and bounded work however many millions match (see docs/decisions.md).
     */
    async countUpTo(filter: LogSqlFilter, cap: number, way: SearchWay = 'indexed'): Promise<number> {
      const { input, values, shape } = inputOf(filter)
      const statement = statements.get(JSON.stringify(['count', way, ...shape]), () => {
        const where = whereSql(input, way)
        return sql`select count(*) as "n" from (
          select 1 from ${activityLog} ${where ? sql`where ${where}` : sql``} limit ${L.limit}) as "limited"`
      })
      const [row] = await runStatement(db, statement, { ...values, limit: cap + 1 })
      return Number(row?.n ?? 0)
    },

    /**
     * One keyset chunk of the export: rows after `cursor` in newest-first order, as the driver
     * gives them (no query-builder mapping per row: a 1,000,000-row export spent an eighth of
     * its CPU there), the timestamp already in the CSV's ISO form.
     */
    async chunk(filter: LogSqlFilter, cursor: LogCursor | null, size: number): Promise<ExportRow[]> {
      const after = cursor
        ? sql`(${activityLog.createdAt}, ${activityLog.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`
        : undefined
      const where = and(whereOf(filter), after)
      const result = await db.execute(sql`
        select ${activityLog.id} as "id",
               ${activityLog.createdAt}::text as "cursorAt",
               to_char(${activityLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
               ${activityLog.actorName} as "actorName",
               ${activityLog.actorEmail} as "actorEmail",
               ${activityLog.action} as "action",
               ${activityLog.details} as "details",
               ${activityLog.ipAddress} as "ipAddress"
        from ${activityLog}
        ${where ? sql`where ${where}` : sql``}
        order by ${sql.join(newestFirst, sql`, `)}
        limit ${size}`)
      return rowsOf<Omit<ExportRow, 'id'> & { id: number | string | bigint }>(result).map((row) => ({
        ...row,
        id: Number(row.id),
      }))
    },

    /** The user's latest rows (index activity_log_user_id_created_at_idx). */
    async recentOfUser(userId: string, limit: number): Promise<LogRow[]> {
      return db
        .select(columns)
        .from(activityLog)
        .where(eq(activityLog.userId, userId))
        .orderBy(...newestFirst)
        .limit(limit)
    },

    /**
     * The log is partitioned by month (migration 0014): makes the partitions of the months from
     * `from` to `to` that do not exist yet (rows of a month without one wait in the default
     * partition and are moved when it is made). Returns how many were made.
     */
    async ensureMonthPartitions(from: string, to: string): Promise<number> {
      const [row] = await queryRows<{ made: number }>(
        db,
        sql`select activity_log_ensure_months(${from}::date, ${to}::date) as made`,
      )
      return Number(row?.made ?? 0)
    },
  }
}
export type LogsRepository = ReturnType<typeof createLogsRepository>
