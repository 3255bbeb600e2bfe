import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { companyLearnerStat } from '../../db/schema'

/**
 * A full registration listing defers the learner aggregate of companies that have none yet
 * (migration 0021): each page's transaction sets this, and company_learner_refresh then marks
 * such a company `building` instead of upserting its learners page by page.
 */
export const DEFER_LEARNERS_SQL = sql`select set_config('portal.learners_deferred', 'on', true)`

/** A build of the largest company reads all its registrations: more than a request's 30 s may be needed. */
const BUILD_TIMEOUT = '15min'

/**
 * Builds every company marked `building`, one transaction each (company_learner_build): the
 * end of each registration run, so a build left by a run that stopped is done by the next one.
 * Stops between companies when the run must stop; the rest stay marked.
 */
export async function buildDeferredLearners(db: Db, stopped: () => boolean): Promise<void> {
  const waiting = await db
    .select({ companyId: companyLearnerStat.companyId })
    .from(companyLearnerStat)
    .where(eq(companyLearnerStat.building, true))
    .orderBy(asc(companyLearnerStat.companyId))
  for (const { companyId } of waiting) {
    if (stopped()) break
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('statement_timeout', ${BUILD_TIMEOUT}, true)`)
      await tx.execute(sql`select company_learner_build(${companyId})`)
    })
  }
}
