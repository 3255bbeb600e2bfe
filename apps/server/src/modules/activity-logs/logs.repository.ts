import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { ActivityAction } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { activityLog, activityLogDay, activityLogUserDay } from '../../db/schema'
import { MIN_SUBSTRING_TERM, matchesTerm } from '../../db/search'

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
 * Every condition uses a column of the (created_at, id), (action, …) or (user_id, …) indexes,
 * or, for a search, the stored lowercased search_text and its trigram index (migration 0014), or
 * for a term with a dot, the index of that text without its dots (migration 0019).
 */
function whereOf(filter: LogSqlFilter, way: SearchWay = 'indexed'): SQL | undefined {
  const conditions: SQL[] = []
  if (filter.from) conditions.push(gte(activityLog.createdAt, filter.from))
  if (filter.before) conditions.push(lt(activityLog.createdAt, filter.before))
  if (filter.userId) conditions.push(eq(activityLog.userId, filter.userId))
  if (filter.action) conditions.push(eq(activityLog.action, filter.action))
  const term = filter.searchTerm?.trim()
  if (term) {
    const dotless = way === 'indexed' ? dotlessTerm(term) : null
    if (dotless) {
      // Found through the index of the text without its dots (migration 0019), then the text
      // itself compared, unindexed: "ab.cd" must not find "abc.d".
      conditions.push(matchesTerm(sql`translate(${activityLog.searchText}, '.', '')`, dotless, { lowered: true }))
    }
    conditions.push(
      matchesTerm(sql`${activityLog.searchText}`, term, { lowered: true, indexed: way === 'indexed' && !dotless }),
    )
  }
  return conditions.length ? and(...conditions) : undefined
}

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

/** A UTC day (YYYY-MM-DD) of an instant: the key of the kept day counts. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10)

/** Rows of one UTC day that match a filter, newest day first. */
export interface DayCount {
  day: string
  rows: number
}

/**
 * Newest first; id breaks ties so pages neither repeat nor skip rows. NULLS LAST (never null
 * here) spells out the order of the indexes (created_at DESC NULLS LAST, id DESC NULLS LAST):
 * a plain DESC means NULLS FIRST, which no index serves, and PostgreSQL then sorted all rows
 * (280 ms at 2 million rows, against 0.1 ms as an index-only scan).
 */
const newestFirst = [sql`${activityLog.createdAt} desc nulls last`, sql`${activityLog.id} desc nulls last`]

export function createLogsRepository(db: DbOrTx) {
  return {
    /**
     * One page. Deferred join: the offset is walked over an index alone (ids), and only the
     * page's rows are read from the table. `before` may narrow the range (the seek of a deep page
     * past whole days, logs.service.ts).
     */
    async page(filter: LogSqlFilter, limit: number, offset: number): Promise<LogRow[]> {
      const ids = db
        .select({
          id: sql<number>`${activityLog.id}`.as('page_id'),
          at: sql<Date>`${activityLog.createdAt}`.as('page_at'),
        })
        .from(activityLog)
        .where(whereOf(filter))
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset)
        .as('page')
      return db
        .select(columns)
        .from(ids)
        .innerJoin(activityLog, and(eq(activityLog.id, ids.id), eq(activityLog.createdAt, ids.at)))
        .orderBy(...newestFirst)
    },

    /**
     * A search's matches within the filter's time range, newest first, at most `limit` (the
     * service asks each slice of time in turn, issue #13): `scan` walks the time index newest first
     * and compares each row's text until it has `limit`; `indexed` finds every match of the range
     * through the trigram index and sorts them (the `offset 0` fence keeps the planner from walking
     * the time index instead, which for a rare term would read every row). The matches are both
     * the search's count and its page: no statement searches twice.
     */
    async matches(filter: LogSqlFilter, limit: number, way: SearchWay): Promise<LogKey[]> {
      const where = whereOf(filter, way) ?? sql`true`
      const source =
        way === 'scan'
          ? sql`${activityLog} where ${where}`
          : sql`(select ${activityLog.id}, ${activityLog.createdAt} from ${activityLog} where ${where} offset 0) as ${activityLog}`
      const result = (await db.execute(sql`
        select ${activityLog.id} as "id", ${activityLog.createdAt}::text as "createdAt"
        from ${source}
        order by ${sql.join(newestFirst, sql`, `)}
        limit ${limit}`)) as unknown as { rows: { id: number | string | bigint; createdAt: string }[] }
      return result.rows.map((row) => ({ id: Number(row.id), createdAt: row.createdAt }))
    },

    /** The rows of `keys` (matches of a search), newest first: a primary-key look-up each. */
    async byKeys(keys: LogKey[]): Promise<LogRow[]> {
      if (keys.length === 0) return []
      // created_at bounds the partitions looked in; the keys come newest first.
      return db
        .select(columns)
        .from(activityLog)
        .where(
          and(
            sql`${activityLog.id} = any(${sql.param(keys.map((k) => k.id))}::bigint[])`,
            sql`${activityLog.createdAt} >= ${keys[keys.length - 1]!.createdAt}::timestamptz`,
            sql`${activityLog.createdAt} <= ${keys[0]!.createdAt}::timestamptz`,
          ),
        )
        .orderBy(...newestFirst)
    },

    /**
     * Matching rows per UTC day, newest first, from the counts kept by migration 0008's triggers
     * (no search; a user and an action together are counted by countUpTo instead).
     */
    async dayCounts(filter: LogSqlFilter): Promise<DayCount[]> {
      const from = filter.from ? dayOf(filter.from) : null
      const before = filter.before ? dayOf(filter.before) : null
      if (filter.userId) {
        const t = activityLogUserDay
        return db
          .select({ day: t.day, rows: t.rows })
          .from(t)
          .where(
            and(
              eq(t.userId, filter.userId),
              from ? gte(t.day, from) : undefined,
              before ? lt(t.day, before) : undefined,
              sql`${t.rows} <> 0`,
            ),
          )
          .orderBy(desc(t.day))
      }
      const t = activityLogDay
      return db
        .select({ day: t.day, rows: t.rows })
        .from(t)
        .where(
          and(
            eq(t.action, filter.action ?? '*'),
            from ? gte(t.day, from) : undefined,
            before ? lt(t.day, before) : undefined,
            sql`${t.rows} <> 0`,
          ),
        )
        .orderBy(desc(t.day))
    },

    /**
     * The number of matching rows, counted up to `cap + 1` and no further: exact below the cap,
     * and bounded work however many millions match (see docs/decisions.md, issue #6).
     */
    async countUpTo(filter: LogSqlFilter, cap: number, way: SearchWay = 'indexed'): Promise<number> {
      const limited = db
        .select({ one: sql`1` })
        .from(activityLog)
        .where(whereOf(filter, way))
        .limit(cap + 1)
        .as('limited')
      const [row] = await db.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(limited)
      return row?.n ?? 0
    },

    /**
     * One keyset chunk of the export: rows after `cursor` in newest-first order, as the driver
     * gives them (no query-builder mapping per row: a 1,000,000-row export spent an eighth of
     * its CPU there, issue #7), the timestamp already in the CSV's ISO form.
     */
    async chunk(filter: LogSqlFilter, cursor: LogCursor | null, size: number): Promise<ExportRow[]> {
      const after = cursor
        ? sql`(${activityLog.createdAt}, ${activityLog.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`
        : undefined
      const where = and(whereOf(filter), after)
      const result = (await db.execute(sql`
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
        limit ${size}`)) as unknown as { rows: (Omit<ExportRow, 'id'> & { id: number | string | bigint })[] }
      return result.rows.map((row) => ({ ...row, id: Number(row.id) }))
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
  }
}
export type LogsRepository = ReturnType<typeof createLogsRepository>
