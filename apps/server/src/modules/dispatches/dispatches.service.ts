import type { Destination, Dispatch, DispatchListQuery, DispatchListResponse } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import {
  EMPTY_SUMMARY,
  toDispatch,
  toPagination,
  toSummary,
  type DispatchRow,
  type SummaryRow,
} from './dispatches.mapper'
import { createDispatchesRepository, type DispatchFilter } from './dispatches.repository'
import { dispatchScope, type Viewer } from './dispatches.scope'
import { cachePerDatabase } from './versioned-cache'

export const DISPATCH_NOT_FOUND = 'Dispatch not found'

/** Summaries of recent list filters: one per scope, status and search term. */
const summaryCache = cachePerDatabase<SummaryRow>(500)
/**
 * Recent list pages (issue #7): a page is read again only after the dispatch data changed, so
 * the dashboard that every user of a company opens, and paging back and forth, cost the
 * session check and a one-row version read. About 20 KB a page, 200 pages at most.
 */
const pageCache = cachePerDatabase<DispatchRow[]>(200)

/** Reads of the dispatch mirror (SPEC §2 dispatch list and details), scoped to the caller. */
export function createDispatchesService(db: DbOrTx) {
  const dispatches = createDispatchesRepository(db)

  /**
   * The dispatch if the caller may see it. Another company's or a removed dispatch is 404,
   * never 403, so a client cannot learn that an id exists (STYLE.md, immich's requireAccess).
   */
  async function requireVisible(viewer: Viewer, id: string): Promise<DispatchRow> {
    const scope = dispatchScope(viewer)
    const row = scope ? await dispatches.findVisible(id, scope) : null
    if (!row) throw new AppError('NOT_FOUND', DISPATCH_NOT_FOUND)
    return row
  }

  /**
   * The summary of a filtered set, counted again only when the dispatch data changed since it
   * was last counted (issue #7: 50,000 dispatches, a search scans them all). Staff share one
   * scope (every present dispatch), a client has its company's.
   */
  async function summaryOf(scopeKey: string, filter: DispatchFilter, version: number | null): Promise<SummaryRow> {
    const key = JSON.stringify([scopeKey, filter.status, filter.search?.trim() ?? ''])
    const read = await summaryCache(db).read(key, version, async () => {
      const { version: counted, ...summary } = await dispatches.summary(filter)
      return { value: summary, version: counted }
    })
    return read.value
  }

  return {
    requireVisible,

    async list(viewer: Viewer, query: DispatchListQuery): Promise<DispatchListResponse> {
      const scope = dispatchScope(viewer)
      if (!scope) {
        return {
          dispatches: [],
          pagination: toPagination(0, query.page, query.pageSize),
          summary: toSummary(EMPTY_SUMMARY, viewer.role),
        }
      }
      const filter = { scope, search: query.search, status: query.status }
      const offset = (query.page - 1) * query.pageSize
      // The page and the summary of the whole set, each served from its cache while the data
      // version is the one it was read at, else read again with the version it was read at.
      const scopeKey = viewer.role === 'client' ? `company:${viewer.companyId}` : 'all'
      const key = JSON.stringify([
        scopeKey,
        query.status,
        query.search?.trim() ?? '',
        query.sort,
        query.order,
        query.pageSize,
        offset,
      ])
      const { value: rows, version } = await pageCache(db).read(key, await dispatches.version(), async () => {
        const read = await dispatches.page(filter, query.sort, query.order, query.pageSize, offset)
        return { value: read.rows, version: read.version }
      })
      const summary = await summaryOf(scopeKey, filter, version)
      return {
        dispatches: rows.map((row) => toDispatch(row, viewer.role)),
        pagination: toPagination(summary.totalDispatches, query.page, query.pageSize),
        summary: toSummary(summary, viewer.role),
      }
    },

    async get(viewer: Viewer, id: string): Promise<Dispatch> {
      return toDispatch(await requireVisible(viewer, id), viewer.role)
    },

    async destinations(): Promise<Destination[]> {
      return dispatches.destinations()
    },
  }
}
export type DispatchesService = ReturnType<typeof createDispatchesService>
