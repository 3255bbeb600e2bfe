import type { SyncRepository } from './sync.repository'

/**
 * Builds the aggregates of every dispatch marked `building`, a group of dispatches per
 * transaction (dispatch_aggregates_build), then every company's learners marked `building`, one
 * transaction each (company_learner_build): the end of each registration run, so a build left
 * by a run that stopped is done by the next one. Stops between transactions when the run must
 * stop; the rest stay marked. A full registration listing marks them (DEFER_AGGREGATES_SQL in
 * sync.repository.ts, migrations 0021 and 0044).
 */
export async function buildDeferredAggregates(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  for (const group of await mirror.dispatchesAwaitingAggregates()) {
    if (stopped()) return
    await mirror.buildDispatchAggregates(group)
  }
  await buildDeferredLearners(mirror, stopped)
}

/** The companies' learner builds alone (company_learner_build), one transaction each. */
export async function buildDeferredLearners(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  for (const companyId of await mirror.companiesAwaitingLearners()) {
    if (stopped()) break
    await mirror.buildCompanyLearners(companyId)
  }
}
