import { sql, type SQL } from 'drizzle-orm'
import type { DispatchListQuery } from '@portal/shared'
import { enabledIs } from '../../db/dispatch-search'
import { dispatch, dispatchSortCount } from '../../db/schema'

/**
 * A staff page without a search whose walk starts this many rows in or further is placed by the
 * kept sort counts (`placed`); a shallower walk of the index costs less than reading the counts.
 */
export const PLACED_PAGE_OFFSET = 2_000

/** The kept counts (dispatch_sort_count.sort) that place a page of each sort; none for registrations. */
export const PLACED_BY: Partial<Record<DispatchListQuery['sort'], 'client' | 'course'>> = {
  client: 'client',
  status: 'client',
  course: 'course',
}

/**
 * The ids of a placed page (pageWay): the kept counts of the keys in the walk's order, summed
 * until the key that holds the walk's `offset`-th row, then the sort index from that key with
 * the offset left over. The counts and the walk are read in one statement, so they agree. Only
 * the filter's flag is counted; the status sort's keys are the flag, then the company name.
 */
export function placedIdsSql(
  /** The page's limit and its offset from the walk's end of the list, as the statement takes them. */
  page: { limit: SQL; offset: SQL },
  status: DispatchListQuery['status'],
  sort: DispatchListQuery['sort'],
  direction: 'asc' | 'desc',
  where: SQL,
  keys: SQL[],
): SQL {
  const c = dispatchSortCount
  const dir = sql.raw(direction)
  const byFlag = sort === 'status'
  const flag = enabledIs(status, c.enabled)
  const kind = sql.raw(`'${PLACED_BY[sort]!}'`)
  // The counts' rows in the walk's order, straight off an index (no grouping, no sort), with two
  // running sums over groups of equal keys: through the row's key (`upto`) and before it
  // (`before`). The client and course sorts without a status filter count a key's two flags as
  // one group; the status sort's groups are a flag and a key. The first row whose key ends past
  // the offset holds the page's first row, and the walk stops there.
  const order = sql.join(
    (byFlag ? [c.enabled, c.key] : [c.key]).map((column) => sql`${column} ${dir}`),
    sql`, `,
  )
  const groups = (end: string) => sql`over (order by ${order} groups between unbounded preceding and ${sql.raw(end)})`
  const at = byFlag ? sql`((select "flag" from "at"), (select "key" from "at"))` : sql`((select "key" from "at"))`
  const cmp = sql.raw(direction === 'asc' ? '>=' : '<=')
  const { limit, offset } = page
  return sql`with "at" as (
      select "flag", "key", "before" from (
        select ${c.enabled} as "flag", ${c.key} as "key",
          sum(${c.dispatches}) ${groups('current row')} as "upto",
          coalesce(sum(${c.dispatches}) ${groups('1 preceding')}, 0) as "before"
        from ${c} where ${c.sort} = ${kind} and ${flag}
      ) as "summed"
      where "upto" > ${offset}
      order by ${sql.raw(byFlag ? `"flag" ${direction}, "key" ${direction}` : `"key" ${direction}`)}
      limit 1
    )
    select ${dispatch.id} as "page_id" from ${dispatch}
    where ${where} and (${sql.join(keys, sql`, `)}) ${cmp} ${at}
    order by ${sql.join(
      [...keys, sql`${dispatch.id}`].map((k) => sql`${k} ${dir}`),
      sql`, `,
    )}
    limit ${limit} offset ${offset} - (select "before" from "at")::bigint`
}
