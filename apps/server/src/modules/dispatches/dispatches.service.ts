import {
  ownCompanyOnly,
  type Destination,
  type Dispatch,
  type DispatchListQuery,
  type DispatchListResponse,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { JsonAnswer, JsonText } from '../../lib/json-answer'
import { toPagination } from '../../lib/pagination'
import { EMPTY_SUMMARY, toDispatch, toSummary, type DispatchRow, type SummaryRow } from './dispatches.mapper'
import { dispatchFields } from './dispatches.fields'
import { SHALLOW_PAGE_END, type DispatchFilter, type DispatchesRepository } from './dispatches.repository'
import type { Viewer } from '../../lib/viewer'
import { scopeCompany } from './dispatches.scope'
import { cachePerDatabase, createVersionedCache, type ReadCacheOptions } from '../../lib/versioned-cache'

export const DISPATCH_NOT_FOUND = 'Dispatch not found'

/**
 * Recent list pages: a page is read again only after the dispatches it was read from
 * changed (any dispatch for staff, the company's for a client), so the dashboard that
 * every user of a company opens, and paging back and forth, cost the session check and a
 * one-row version read. About 20 KB a page, 200 pages at most.
 */
const pageCache = cachePerDatabase<string>(200)

/** Reads of the dispatch mirror (docs/product-rules.md §2 dispatch list and details), scoped to the caller. */

export function createDispatchesService(
  /** The database the cached pages were read from (their cache is kept per database). */
  db: DbOrTx,
  dispatches: DispatchesRepository,
  options: Pick<ReadCacheOptions, 'cache'> = {},
) {
  const pages = options.cache === false ? createVersionedCache<string>(0) : pageCache(db)

  /**
   * The dispatch if the caller may see it. Another company's or a removed dispatch is 404,
   * never 403, so a client cannot learn that an id exists (docs/architecture.md §3, immich's requireAccess).
   */
  async function requireVisible(viewer: Viewer, id: string): Promise<DispatchRow> {
    const scope = scopeCompany(viewer)
    const row = scope ? await dispatches.findVisible(id, scope.companyId) : null
    if (!row) throw new AppError('NOT_FOUND', DISPATCH_NOT_FOUND)
    return row
  }

  return {
    requireVisible,

    async list(viewer: Viewer, query: DispatchListQuery): Promise<JsonAnswer<DispatchListResponse>> {
      const scope = scopeCompany(viewer)
      // The rows come written as JSON by PostgreSQL (dispatches-page.sql.ts rowsJsonSql).
      const answer = (rowsJson: string, summary: SummaryRow) =>
        new JsonAnswer<DispatchListResponse>({
          dispatches: new JsonText(rowsJson),
          pagination: toPagination(summary.totalDispatches, query.page, query.pageSize),
          summary: toSummary(summary, viewer.role),
        })
      if (!scope) return answer('[]', EMPTY_SUMMARY)
      const fields = dispatchFields.view(viewer.role)
      const filter: DispatchFilter = { companyId: scope.companyId, search: query.search, status: query.status }
      const offset = (query.page - 1) * query.pageSize
      const staff = !ownCompanyOnly(viewer.role)
      if (staff && !query.search?.trim() && offset + query.pageSize <= SHALLOW_PAGE_END) {
        const read = await dispatches.summaryAndPage(fields, filter, query.sort, query.order, query.pageSize, offset)
        return answer(read.rowsJson, read.summary)
      }
      // The summary, the version and what a search matched, from the kept aggregates; then the
      // page, served from its cache while the version is the one it was read at, else read
      // again with the version it was read at.
      const facts = await dispatches.facts(filter)
      const { summary } = facts
      const scopeKey = ownCompanyOnly(viewer.role) ? `company:${viewer.companyId}` : 'all'
      const key = JSON.stringify([
        scopeKey,
        fields.key,
        query.status,
        query.search?.trim() ?? '',
        query.sort,
        query.order,
        query.pageSize,
        offset,
      ])
      const { value: rowsJson } =
        offset >= summary.totalDispatches
          ? { value: '[]' }
          : await pages.read(key, facts.version, async () => {
              const read = await dispatches.page(
                fields,
                filter,
                facts.sets,
                query.sort,
                query.order,
                query.pageSize,
                offset,
                {
                  matches: summary.totalDispatches,
                  scope: facts.scopeDispatches,
                },
              )
              return { value: read.rowsJson, version: read.version }
            })
      return answer(rowsJson, summary)
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
