import { eachLimit } from '../../lib/each-limit'
import type { SyncRepository } from './sync.repository'

/**
 * Companies whose learner aggregates are built at once. Each build reads the registrations of
 * one company and writes only that company's rows, so builds never wait for each other; two keep
 * a second database core busy without taking the pool from the requests.
 */
export const LEARNER_BUILDS_AT_ONCE = 2

/**
 * Builds the aggregates of every dispatch marked `building`, a group of dispatches per
 * transaction (dispatch_aggregates_build), and every company's learners marked `building`, one
 * transaction each (company_learner_build): the end of each registration run, so a build left
 * by a run that stopped is done by the next one. Stops between transactions when the run must
 * stop; the rest stay marked. A full registration listing marks them (DEFER_AGGREGATES_SQL in
 * sync-writes.sql.ts, migrations 0021 and 0044).
 *
 * The dispatch builds go one group at a time: they add to rows groups share (a company's months,
 * the summaries). The learner builds read neither those rows nor the dispatches' marks, so they
 * run beside them.
 */
export async function buildDeferredAggregates(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  const dispatchBuilds = async () => {
    for (const group of await mirror.dispatchesAwaitingAggregates()) {
      if (stopped()) return
      await mirror.buildDispatchAggregates(group)
    }
  }
  const outcomes = await Promise.allSettled([dispatchBuilds(), buildDeferredLearners(mirror, stopped)])
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason
}

/**
 * Moves the registrations a first full listing staged into the mirror (migration 0045), a group
 * of dispatches per transaction, before their aggregates are built. Stops between transactions
 * when the run must stop; the rest stay staged for the next run.
 *
 * Into an empty mirror, a first sync of many registrations moves them with the mirror's
 * secondary indexes set aside and builds them once at the end (db/indexes-aside.ts), before
 * the aggregate builds read the mirror by dispatch. A run that stops leaves them aside; the
 * next one goes on moving and builds them when its move is done.
 */
export async function moveStagedRegistrations(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  const { groups, rows } = await mirror.stagedGroups()
  if (groups.length > 0 && rows >= mirror.bulkIndexRows && (await mirror.isEmpty('registration'))) {
    await mirror.setIndexesAside('registration')
  }
  for (const group of groups) {
    if (stopped()) return
    await mirror.moveStaged(group)
  }
  await mirror.restoreIndexes('registration')
  if (groups.length > 0) await mirror.clearStaged()
}

/**
 * The companies' learner builds alone (company_learner_build), one transaction each. When a
 * first sync builds every company's learners from many registrations, `company_learner` is
 * filled with its secondary indexes set aside, built again once every company is done (while
 * the dispatch builds go on); a run that stops leaves them aside for the next run's builds.
 */
export async function buildDeferredLearners(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  const companies = await mirror.companiesAwaitingLearners()
  if (
    companies.length > 0 &&
    (await mirror.isEmpty('company_learner')) &&
    (await mirror.hasRegistrations(mirror.bulkIndexRows))
  ) {
    await mirror.setIndexesAside('company_learner')
  }
  await eachLimit(companies, LEARNER_BUILDS_AT_ONCE, async (companyId) => {
    if (!stopped()) await mirror.buildCompanyLearners(companyId)
  })
  if (!stopped()) await mirror.restoreIndexes('company_learner')
}
