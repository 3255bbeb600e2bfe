import { Type } from 'typebox'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { renderAlertMail } from '../mail/mail-render'
import type { NewMail } from '../mail/outbox.repository'
import { defineJob, defineSweep, JobRejected, type JobEngine } from '../jobs/job-engine'
import type { AlertsRepository, RaisedAlert } from './alerts.repository'

interface Log {
  info(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** Everything, after a sync run or a settings change: one waiting job at most. */
export const ALERTS_ALL_JOB = 'alerts-evaluate'
/** A stored postback's dispatch: one waiting job per dispatch, evaluated in batches. */
export const ALERTS_POSTBACK_JOB = 'alerts-postback'
/** Postback jobs evaluated together (a batch of postbacks, one evaluation). */
const POSTBACK_BATCH = 500

export interface AlertsServiceOptions {
  db: Db
  /** The evaluation's SQL and the recipients of its alerts. */
  repository: AlertsRepository
  /** The mail outbox: alert mails are queued (with their send job) in the evaluation's transaction. */
  outbox: { enqueue(mails: NewMail[], tx: Tx): Promise<number> }
  /** The job engine the evaluations are sent to. */
  jobs: Pick<JobEngine, 'send'>
  publicUrl: string
  log: Log
  now?: () => Date
}

/**
 * Raises alerts after sync runs and postback batches. Each trigger sends a job (in the trigger's
 * own transaction where it has one); the engine runs them off the request path on the nodes that
 * run jobs, deduplicated per queue and key, and the evaluation's advisory lock makes concurrent
 * evaluations take turns.
 */
export function createAlertsService({
  db,
  repository,
  outbox,
  jobs,
  publicUrl,
  log,
  now = () => new Date(),
}: AlertsServiceOptions) {
  /** One evaluation and its mails, in one transaction: the mail rows commit with their alerts. */
  async function evaluate(dispatchIds: readonly string[] | null = null): Promise<RaisedAlert[]> {
    const { raised, queued } = await db.transaction(async (tx) => {
      const raised = await repository.evaluate({ now: now(), dispatchIds }, tx)
      if (raised.length === 0) return { raised, queued: 0 }
      const byId = new Map(raised.map((a) => [a.id, a]))
      const mails: NewMail[] = (await repository.recipients([...byId.keys()], tx)).map((r) => {
        const mail = renderAlertMail(byId.get(r.alertId)!, publicUrl)
        return {
          idempotencyKey: `alert:${r.alertId}:${r.userId}`,
          kind: 'alert',
          userId: r.userId,
          to: r.email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        }
      })
      return { raised, queued: await outbox.enqueue(mails, tx) }
    })
    if (raised.length > 0) log.info({ alerts: raised.length, mails: queued }, 'alerts raised')
    return raised
  }

  return {
    evaluate,
    /** After a sync run or a settings change: everything, soon (in `tx` when the change has one). */
    async requestAll(tx?: DbOrTx): Promise<void> {
      await jobs.send(ALERTS_ALL_JOB, {}, { tx })
    },
    /** After a stored postback, in its transaction: its dispatch, with the others of the same batch. */
    async notePostback(dispatchId: string, tx?: DbOrTx): Promise<void> {
      await jobs.send(ALERTS_POSTBACK_JOB, { dispatchId }, { tx, key: dispatchId })
    },
  }
}
export type AlertsService = ReturnType<typeof createAlertsService>

/** The alert evaluations as jobs (app.ts defines them on the engine). */
export function alertJobs(
  alerts: Pick<AlertsService, 'evaluate'>,
  repository: Pick<AlertsRepository, 'existingDispatches'>,
) {
  const all = defineSweep(ALERTS_ALL_JOB, async () => ({ alerts: (await alerts.evaluate(null)).length }))
  const postbacks = defineJob({
    name: ALERTS_POSTBACK_JOB,
    payload: Type.Object({ dispatchId: Type.String({ minLength: 1 }) }),
    policy: 'short',
    batchSize: POSTBACK_BATCH,
    async run(payloads) {
      const ids = [...new Set(payloads.map((p) => p.dispatchId))]
      const existing = await repository.existingDispatches(ids)
      const gone = ids.filter((id) => !existing.has(id))
      // A dispatch deleted since its postback: nothing of it to evaluate, and never will be.
      if (existing.size === 0) {
        throw new JobRejected(
          `Dispatch ${gone.join(', ')} no longer exists in the mirror; there is nothing to evaluate.`,
        )
      }
      const raised = await alerts.evaluate([...existing])
      return gone.length > 0
        ? { dispatches: existing.size, alerts: raised.length, gone }
        : { dispatches: existing.size, alerts: raised.length }
    },
  })
  return [all, postbacks]
}
