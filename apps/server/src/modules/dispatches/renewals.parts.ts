import type { FastifyInstance } from 'fastify'
import { perApp } from '../../lib/per-app'
import { Type } from 'typebox'
import { createDispatchCountService } from './dispatch-count.service'
import { createDispatchHistoryRepository } from './dispatch-history.repository'
import dispatchHistoryRoutes from './dispatch-history.routes'
import { createDispatchHistoryService } from './dispatch-history.service'
import { createDispatchUpdateService, type ProviderDeps } from './dispatch-update.service'
import type { DispatchesRepository } from './dispatches.repository'
import { defineJob, defineSweep, type JobEngine } from '../jobs/job-engine'
import type { MailOutbox } from '../mail/mail.parts'
import { createBulkRunsRepository } from './bulk-runs.repository'
import bulkRunsRoutes from './bulk-runs.routes'
import { BULK_JOB, createBulkRunsService, type BulkRunsService } from './bulk-runs.service'
import { createRenewalsRepository } from './renewals.repository'
import renewalsRoutes from './renewals.routes'
import { createRenewalsService, type RenewalsService } from './renewals.service'

/** The sweep that carries out due renewals (and makes rollovers' renewals). */
export const RENEWALS_JOB = 'dispatch-renewals'
/**
 * Every ten minutes: a renewal runs early on its day, and a retry waits about as long as its
 * backoff asks.
 */
export const RENEWALS_CRON = '*/10 * * * *'

export interface RenewalParts {
  renewals: RenewalsService
  bulk: BulkRunsService
}

const partsOfApp = perApp<RenewalParts>('renewalParts: renewals are not registered on this app')

/** Tests: the services this app's renewal routes and jobs use (driven with their own clock). */
export const renewalParts = partsOfApp.of

/**
 * Scheduled renewals and bulk actions: their services over the dispatch update and counter
 * reset services (every change goes through them), their jobs and their routes under
 * /api/dispatches; and the licence history those changes write, with its routes. Called by the composition root (app.ts) before the job engine starts.
 */
export async function registerRenewals(
  app: FastifyInstance,
  deps: {
    providerDeps: ProviderDeps
    repository: DispatchesRepository
    jobs: JobEngine
    mails: MailOutbox
    publicUrl: string
    now?: () => Date
  },
): Promise<void> {
  const now = deps.now ?? (() => new Date())
  const { providerDeps, jobs } = deps
  const updates = createDispatchUpdateService({ ...providerDeps, repository: deps.repository })
  const counts = createDispatchCountService({ ...providerDeps, repository: deps.repository })
  const repository = createRenewalsRepository(providerDeps.db)
  const renewals = createRenewalsService({
    db: providerDeps.db,
    repository,
    updates,
    counts,
    mails: deps.mails,
    publicUrl: deps.publicUrl,
    log: app.log,
  })
  const bulk = createBulkRunsService({
    db: providerDeps.db,
    runs: createBulkRunsRepository(providerDeps.db),
    renewals: repository,
    updates,
    jobs,
    log: app.log,
  })
  jobs.define(
    // A renewal's own retries are its rows' (next_attempt_at); the sweep itself runs again soon.
    defineSweep(
      RENEWALS_JOB,
      async () => ({
        ...(await renewals.runDue(now())),
        // Bulk items a stopped worker left are carried on here too, whatever became of its job.
        bulkItems: await bulk.resumeOpen(now),
      }),
      { retryLimit: 1 },
    ),
    defineJob({
      name: BULK_JOB,
      payload: Type.Object({ runId: Type.String({ minLength: 1, maxLength: 40 }) }),
      // Items are settled one by one: a retried job carries on with the items left.
      retryLimit: 3,
      run: async ([payload]) => bulk.process(payload!.runId, now),
    }),
  )
  jobs.schedule({ name: RENEWALS_JOB, cron: RENEWALS_CRON })
  // After the engine has started (its hook was added first): renewals that fell due while no
  // worker ran, and bulk items a stopped process left, are taken up at once, not at the next sweep.
  app.addHook('onReady', async () => {
    if (jobs.status().working) await jobs.send(RENEWALS_JOB, {})
  })
  partsOfApp.remember(app, { renewals, bulk })
  await app.register(renewalsRoutes, { prefix: '/api/dispatches', renewals, now })
  await app.register(bulkRunsRoutes, { prefix: '/api/dispatches', bulk, now })
  const history = createDispatchHistoryService({
    history: createDispatchHistoryRepository(providerDeps.db),
    dispatches: providerDeps.dispatches,
  })
  await app.register(dispatchHistoryRoutes, { prefix: '/api/dispatches', history })
}
