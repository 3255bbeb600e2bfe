import { BULK_ACTIONS, RENEWAL_MESSAGES as M, type BulkAction, type BulkActionBody, type BulkRun } from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { Actor } from '../../lib/actor'
import type { Viewer } from '../../lib/viewer'
import type { JobEngine } from '../jobs/job-engine'
import type { DispatchUpdateService } from './dispatch-update.service'
import type { BulkRunsRepository } from './bulk-runs.repository'
import type { RenewalsRepository } from './renewals.repository'
import {
  backgroundContext,
  checkCapAgainstCounts,
  checkRenewalChange,
  newRenewal,
  permanentReason,
  resolveSelection,
  staffOf,
  type RenewalChange,
} from './renewals.service'

/** The job that carries a bulk run out (payload: the run's id). */
export const BULK_JOB = 'dispatch-bulk'
/** Items claimed at a time: a worker that dies leaves at most this many to be claimed again. */
export const BULK_CHUNK = 25
/** A claimed item not settled within this was left by a worker that stopped. */
export const BULK_LEASE_MS = 5 * 60_000

const rule = (message: string, field?: string) =>
  new AppError('RULE_VIOLATION', message, field ? { details: [{ field, message }] } : {})
const isAction = (action: string): action is BulkAction => (BULK_ACTIONS as readonly string[]).includes(action)
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

interface Params {
  registrationCap?: number
  expirationDate?: string | null
  renewal?: RenewalChange
}

export interface BulkRunsDeps {
  db: Db
  runs: BulkRunsRepository
  renewals: RenewalsRepository
  updates: DispatchUpdateService
  jobs: Pick<JobEngine, 'send'>
  log?: { error(obj: unknown, msg: string): void }
}

/**
 * Bulk actions on dispatches (docs/product-rules.md, "Bulk actions"): the request is checked
 * as a whole, then written as a run with one item per dispatch and the job that carries it out,
 * in one transaction. Workers claim items in chunks and settle each one (done, or failed with
 * its reason), every change going through the dispatch update service; items a stopped worker
 * left are claimed again after the lease.
 */
export function createBulkRunsService(deps: BulkRunsDeps) {
  const { runs } = deps

  async function perform(action: BulkAction, params: Params, dispatchId: string, runId: string, by: Actor) {
    const ctx = backgroundContext('Bulk run', runId, staffOf(by))
    switch (action) {
      case 'enable':
      case 'disable':
        await deps.updates.update(dispatchId, { enabled: action === 'enable' }, ctx)
        return
      case 'setCap':
        await deps.updates.update(dispatchId, { registrationCap: params.registrationCap! }, ctx)
        return
      case 'setExpiry':
        await deps.updates.update(dispatchId, { expirationDate: params.expirationDate ?? null }, ctx)
        return
      case 'scheduleRenewal': {
        const [target] = await deps.renewals.targets({ dispatchIds: [dispatchId] }, 1)
        if (!target || target.removed) throw new AppError('NOT_FOUND', M.removedUpstream)
        await deps.renewals.insert([newRenewal(target, params.renewal!)], staffOf(by))
        return
      }
    }
  }

  async function process(runId: string, now: () => Date, shouldStop: () => boolean = () => false) {
    const run = await runs.find(runId)
    if (!run || run.status !== 'running' || !isAction(run.action)) return { processed: 0 }
    const by = { id: run.createdById, name: run.createdByName, email: run.createdByEmail }
    let processed = 0
    for (;;) {
      const chunk = await runs.claim(runId, now(), BULK_LEASE_MS, BULK_CHUNK)
      if (chunk.length === 0) break
      for (const item of chunk) {
        // A stop here leaves the chunk's other items claimed, as a killed process would.
        if (shouldStop()) return { processed }
        try {
          await perform(run.action, run.params as Params, item.dispatchId, runId, by)
          await runs.settle(runId, item.position, 'done', null, now())
        } catch (error) {
          deps.log?.error({ err: error, runId, dispatchId: item.dispatchId }, 'bulk item failed')
          await runs.settle(runId, item.position, 'failed', permanentReason(error) ?? messageOf(error), now())
        }
        processed++
      }
    }
    await runs.finishIfDone(runId, now())
    return { processed }
  }

  return {
    async start(viewer: Viewer, actor: Actor | null, body: BulkActionBody, now: Date) {
      if (!isAction(body.action)) throw rule(M.unknownAction, 'action')
      const params: Params = {}
      if (body.action === 'setCap') {
        if (body.registrationCap === undefined) throw rule(M.nothingToChange, 'registrationCap')
        params.registrationCap = body.registrationCap
      } else if (body.action === 'setExpiry') {
        if (body.expirationDate === undefined) throw rule(M.nothingToChange, 'expirationDate')
        params.expirationDate = body.expirationDate || null
      } else if (body.action === 'scheduleRenewal') {
        if (!body.renewal) throw rule(M.nothingToChange, 'renewal')
        checkRenewalChange(body.renewal, now)
        params.renewal = body.renewal
      }
      const targets = await resolveSelection(deps.renewals, viewer, body)
      if (params.registrationCap !== undefined) checkCapAgainstCounts(targets, params.registrationCap, body)
      if (params.renewal) checkCapAgainstCounts(targets, params.renewal.registrationCap, params.renewal)
      const id = await deps.db.transaction(async (tx) => {
        const runId = await runs.create(
          body.action,
          params,
          targets.map((t) => t.id),
          staffOf(actor),
          tx,
        )
        await deps.jobs.send(BULK_JOB, { runId }, { tx })
        return runId
      })
      return { id, total: targets.length }
    },

    async get(id: string): Promise<BulkRun> {
      const run = await runs.find(id)
      if (!run) throw new AppError('NOT_FOUND', 'Bulk run not found.')
      const items = await runs.items(id)
      return {
        id: run.id,
        action: run.action,
        status: run.status,
        total: run.total,
        done: run.done,
        failed: run.failed,
        createdAt: run.createdAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        items: items.map(({ position: _position, ...item }) => item),
      }
    },

    process,

    /** Carries on every run a stopped worker left (the renewal sweep calls it). */
    async resumeOpen(now: () => Date): Promise<number> {
      let processed = 0
      for (const id of await runs.openRuns(now(), BULK_LEASE_MS)) processed += (await process(id, now)).processed
      return processed
    },
  }
}
export type BulkRunsService = ReturnType<typeof createBulkRunsService>
