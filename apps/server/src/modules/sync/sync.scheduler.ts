import type { FastifyBaseLogger } from 'fastify'
import { AppError } from '../../lib/app-error'
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

export interface SyncScheduler {
  stop(): void
}

/** Every `intervalMinutes` (0 = off) a run of every kind; the timer never keeps the process alive. */
export function startSyncScheduler(sync: SyncService, intervalMinutes: number, log: Log): SyncScheduler {
  if (intervalMinutes <= 0) return { stop() {} }
  let running = false
  const timer = setInterval(() => {
    // A run longer than the interval is not stacked on by the next tick.
    if (running) return
    running = true
    void runAllKinds(sync, 'schedule', log).finally(() => {
      running = false
    })
  }, intervalMinutes * 60_000)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
