import type { Destination, Dispatch, DispatchListQuery, DispatchListResponse } from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { EMPTY_SUMMARY, toDispatch, toPagination, toSummary, type DispatchRow } from './dispatches.mapper'
import { createDispatchesRepository } from './dispatches.repository'
import { dispatchScope, type Viewer } from './dispatches.scope'

export const DISPATCH_NOT_FOUND = 'Dispatch not found'

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
      // Two statements, both over the same filter: the page, and the summary of the whole set.
      const [rows, summary] = await Promise.all([
        dispatches.page(filter, query.sort, query.order, query.pageSize, offset),
        dispatches.summary(filter),
      ])
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
