import { eachLimit } from './each-limit'
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
 * sync.repository.ts, migrations 0021 and 0044).
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
 */
export async function moveStagedRegistrations(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  const groups = await mirror.stagedGroups()
  for (const group of groups) {
    if (stopped()) return
    await mirror.moveStaged(group)
  }
  if (groups.length > 0) await mirror.clearStaged()
}

/** The companies' learner builds alone (company_learner_build), one transaction each. */
export async function buildDeferredLearners(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  await eachLimit(await mirror.companiesAwaitingLearners(), LEARNER_BUILDS_AT_ONCE, async (companyId) => {
    if (!stopped()) await mirror.buildCompanyLearners(companyId)
  })
}
