import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { dispatchHistory } from '../../db/schema'

export type HistoryRow = typeof dispatchHistory.$inferSelect

/**
 * The licence history rows of one dispatch (migration 0036), newest first by id (ids grow with
 * time: rows are only ever appended). `companyId` scopes a client's read in the query itself:
 * another company's dispatch has no rows for it.
 */
export function createDispatchHistoryRepository(db: Db) {
  return {
    async page(dispatchId: string, companyId: string | undefined, limit: number, before?: number) {
      const where: (SQL | undefined)[] = [eq(dispatchHistory.dispatchId, dispatchId)]
      if (companyId !== undefined) where.push(eq(dispatchHistory.companyId, companyId))
      if (before !== undefined) where.push(lt(dispatchHistory.id, before))
      return db
        .select()
        .from(dispatchHistory)
        .where(and(...where))
        .orderBy(desc(dispatchHistory.id))
        .limit(limit)
    },
  }
}
export type DispatchHistoryRepository = ReturnType<typeof createDispatchHistoryRepository>
