import type { SyncRepository } from './sync.repository'

/**
 * Builds every company marked `building`, one transaction each (company_learner_build): the
 * end of each registration run, so a build left by a run that stopped is done by the next one.
 * Stops between companies when the run must stop; the rest stay marked. A full registration
 * listing marks them (DEFER_LEARNERS_SQL in sync.repository.ts, migration 0021).
 */
export async function buildDeferredLearners(mirror: SyncRepository, stopped: () => boolean): Promise<void> {
  for (const companyId of await mirror.companiesAwaitingLearners()) {
    if (stopped()) break
    await mirror.buildCompanyLearners(companyId)
  }
}
