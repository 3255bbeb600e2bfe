import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { company, dispatch, dispatchLearner, dispatchStat, registration } from '../../db/schema'
import { companyShownName } from '../../db/columns'

/** A company's delivery columns (migration 0030) and its dispatches' instancing, from the mirror. */
export interface CompanyDeliveryRow {
  id: string
  shownName: string
  launchAuthType: string | null
  launchAuthIpAddress: boolean | null
  launchAuthFingerprint: boolean | null
  launchAuthExpiry: number | null
  launchAuthSlidingExpiry: number | null
  hashUserInfo: boolean | null
  cssUrl: string | null
  dispatches: number
  instancedDispatches: number
}

export interface DispatchDeliveryRow {
  id: string
  instanced: boolean
  hashUserInfo: boolean | null
  cssUrl: string | null
}

export interface CompanyDeliveryUpdate {
  launchAuthType?: string | null
  launchAuthIpAddress?: boolean | null
  launchAuthFingerprint?: boolean | null
  launchAuthExpiry?: number | null
  launchAuthSlidingExpiry?: number | null
  hashUserInfo?: boolean
  cssUrl?: string | null
}

export function createDeliveryRepository(db: Db) {
  return {
    async findCompany(id: string, tx: DbOrTx = db): Promise<CompanyDeliveryRow | null> {
      return firstRow(
        tx
          .select({
            id: company.id,
            shownName: companyShownName,
            launchAuthType: company.launchAuthType,
            launchAuthIpAddress: company.launchAuthIpAddress,
            launchAuthFingerprint: company.launchAuthFingerprint,
            launchAuthExpiry: company.launchAuthExpiry,
            launchAuthSlidingExpiry: company.launchAuthSlidingExpiry,
            hashUserInfo: company.hashUserInfo,
            cssUrl: company.cssUrl,
            // Qualified by hand: inside the subquery drizzle would render company.id as a bare "id".
            dispatches: sql<number>`(select count(*)::int from ${dispatch} d where d.destination_id = "company"."id" and d.removed_at is null)`,
            instancedDispatches: sql<number>`(select count(*)::int from ${dispatch} d where d.destination_id = "company"."id" and d.removed_at is null and d.instanced)`,
          })
          .from(company)
          .where(and(eq(company.id, id), isNull(company.removedAt))),
      )
    },

    async updateCompany(id: string, values: CompanyDeliveryUpdate, tx: DbOrTx = db): Promise<void> {
      if (Object.keys(values).length === 0) return
      await tx.update(company).set(values).where(eq(company.id, id))
    },

    async findDispatch(id: string, tx: DbOrTx = db): Promise<DispatchDeliveryRow | null> {
      return firstRow(
        tx
          .select({
            id: dispatch.id,
            instanced: dispatch.instanced,
            hashUserInfo: dispatch.hashUserInfo,
            cssUrl: dispatch.cssUrl,
          })
          .from(dispatch)
          .where(eq(dispatch.id, id)),
      )
    },

    async updateDispatch(
      id: string,
      values: { instanced?: boolean; hashUserInfo?: boolean; cssUrl?: string | null },
      tx: DbOrTx = db,
    ): Promise<void> {
      if (Object.keys(values).length === 0) return
      await tx.update(dispatch).set(values).where(eq(dispatch.id, id))
    },

    /** Instancing as SCORM Cloud reports it after a company-wide switch, dispatch by dispatch. */
    async setInstanced(rows: { id: string; instanced: boolean }[], tx: DbOrTx = db): Promise<void> {
      for (const row of rows) await tx.update(dispatch).set({ instanced: row.instanced }).where(eq(dispatch.id, row.id))
    },

    /**
     * Registrations against distinct learners on a dispatch (dispatch_stat, kept by triggers) and
     * the learners holding more than one (dispatch_learner), the most registrations first.
     */
    async licenceCount(dispatchId: string, limit: number, tx: DbOrTx = db) {
      const [stat] = await tx
        .select({ registrations: dispatchStat.registrations, learners: dispatchStat.learners })
        .from(dispatchStat)
        .where(eq(dispatchStat.dispatchId, dispatchId))
      const [repeat] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(dispatchLearner)
        .where(and(eq(dispatchLearner.dispatchId, dispatchId), sql`${dispatchLearner.registrations} > 1`))
      const learners = await tx
        .select({
          learnerId: sql<string>`min(${registration.learnerId})`,
          firstName: sql<string>`min(${registration.learnerFirstName})`,
          lastName: sql<string>`min(${registration.learnerLastName})`,
          email: sql<string>`min(${registration.learnerEmail})`,
          registrations: sql<number>`count(*)::int`,
        })
        .from(registration)
        .where(and(eq(registration.dispatchId, dispatchId), isNull(registration.removedAt)))
        .groupBy(registration.learnerHash)
        .having(sql`count(*) > 1`)
        .orderBy(sql`count(*) desc`, sql`min(${registration.learnerId})`)
        .limit(limit)
      return {
        registrations: stat?.registrations ?? 0,
        learners: stat?.learners ?? 0,
        repeatLearners: repeat?.count ?? 0,
        sample: learners,
      }
    },

    /**
     * The same per company, summed over its live dispatches: a learner counts once per dispatch
     * (licences are per dispatch), so `learners` is learner-and-dispatch pairs.
     */
    async companyLicenceCount(companyId: string, tx: DbOrTx = db) {
      const live = and(eq(dispatch.destinationId, companyId), isNull(dispatch.removedAt))
      const [stat] = await tx
        .select({
          registrations: sql<number>`coalesce(sum(${dispatchStat.registrations}), 0)::int`,
          learners: sql<number>`coalesce(sum(${dispatchStat.learners}), 0)::int`,
        })
        .from(dispatchStat)
        .innerJoin(dispatch, eq(dispatch.id, dispatchStat.dispatchId))
        .where(live)
      const [repeat] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(dispatchLearner)
        .innerJoin(dispatch, eq(dispatch.id, dispatchLearner.dispatchId))
        .where(and(live, sql`${dispatchLearner.registrations} > 1`))
      return {
        registrations: stat?.registrations ?? 0,
        learners: stat?.learners ?? 0,
        repeatLearners: repeat?.count ?? 0,
      }
    },

    /** The style sheets a company's packages are fetched with: the dispatch's own, else the company's. */
    async cssUrls(
      companyId: string,
      tx: DbOrTx = db,
    ): Promise<{ company: string | null; dispatches: Map<string, string> }> {
      const [own] = await tx.select({ cssUrl: company.cssUrl }).from(company).where(eq(company.id, companyId))
      const rows = await tx
        .select({ id: dispatch.id, cssUrl: dispatch.cssUrl })
        .from(dispatch)
        .where(and(eq(dispatch.destinationId, companyId), isNull(dispatch.removedAt)))
      const dispatches = new Map<string, string>()
      for (const r of rows) if (r.cssUrl) dispatches.set(r.id, r.cssUrl)
      return { company: own?.cssUrl ?? null, dispatches }
    },
  }
}
export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>
