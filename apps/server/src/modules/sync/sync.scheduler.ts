import type { FastifyBaseLogger } from 'fastify'
import { Type } from 'typebox'
import { AppError } from '../../lib/app-error'
import { defineJob } from '../jobs/job-engine'
import type { SyncOutcome, SyncService, SyncRequest } from './sync.service'

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

/**
 * One scheduled or start-up run of every kind: full when no complete full run started in the
 * last 24 hours (checked in the database, so N processes do one a day between them), else
 * incremental. Never throws: a busy lock or a provider failure is logged and the mirror stays.
 */
export async function runAllKinds(
  sync: SyncService,
  trigger: SyncRequest['trigger'],
  log: Log,
): Promise<SyncOutcome | null> {
  try {
    const full = await sync.fullRunDue()
    const outcome = await sync.run({ trigger, full })
    if (!outcome.ok) {
      const failed = outcome.results.filter((r) => r.status === 'failed').map((r) => `${r.kind}: ${r.message}`)
      log.warn({ trigger, failed }, 'sync finished with failures')
    }
    return outcome
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') {
      log.info({ trigger }, 'sync skipped: another server process is running one')
    } else {
      log.error({ err: error, trigger }, 'sync could not run')
    }
    return null
  }
}

/**
 * For server.ts: the start-up sync (full on a fresh database, since no cursor exists yet).
 * Resolves with the outcome, or null when SCORM Cloud is not configured or the run could not
 * start. Safe to call without awaiting.
 */
export async function runStartupSync(sync: SyncService | null, log: Log): Promise<SyncOutcome | null> {
  if (!sync) return null
  return runAllKinds(sync, 'startup', log)
}

/** The sync's queue: one run waiting at most (a run covers everything due; the lock allows one at a time). */
export const SYNC_JOB = 'sync'

const SyncJobPayload = Type.Object({
  trigger: Type.Union([Type.Literal('schedule'), Type.Literal('startup')]),
})

/**
 * The scheduled and start-up sync as a job. The run itself never throws (runAllKinds): a failed
 * kind is recorded on its sync run, a busy lock means another node is syncing, so the job ends
 * completed with what happened as its output. The advisory lock stays: a manual run from the
 * sync routes and a job may still meet.
 */
export function syncJob(sync: SyncService, log: Log) {
  return defineJob({
    name: SYNC_JOB,
    payload: SyncJobPayload,
    policy: 'short',
    retryLimit: 2,
    retryDelaySeconds: 60,
    // A full run of a large tenant takes long; past this the node is taken as dead.
    expireInSeconds: 6 * 60 * 60,
    async run([payload]) {
      const outcome = await runAllKinds(sync, payload!.trigger, log)
      if (!outcome) return { ran: false, message: 'Not run: another node was syncing, or the run could not start.' }
      return { ran: true, ok: outcome.ok, results: outcome.results.map((r) => ({ kind: r.kind, status: r.status })) }
    },
  })
}

/**
 * The recurrence of the scheduled sync, every `intervalMinutes` (0 = off): a cron expression
 * when the interval divides an hour or a day, else a recurrence rule. Each run is incremental,
 * or full when no complete full run started in the last 24 hours (the daily full sync).
 */
export function syncSchedule(intervalMinutes: number): string | null {
  if (intervalMinutes <= 0) return null
  if (intervalMinutes < 60 && 60 % intervalMinutes === 0) return `*/${intervalMinutes} * * * *`
  if (intervalMinutes % 60 === 0 && 24 % (intervalMinutes / 60) === 0) return `0 */${intervalMinutes / 60} * * *`
  return `FREQ=MINUTELY;INTERVAL=${intervalMinutes}`
}
