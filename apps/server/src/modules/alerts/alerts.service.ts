import type { Db } from '../../db/client'
import { renderAlertMail } from '../mail/mail-render'
import type { NewMail, OutboxRepository } from '../mail/outbox.repository'
import type { AlertsRepository, RaisedAlert } from './alerts.repository'

interface Log {
  info(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** A postback batch: evaluated this long after its first postback (many postbacks, one evaluation). */
export const POSTBACK_DEBOUNCE_MS = 2_000
/** Past this many pending dispatch ids, one evaluation of everything is cheaper. */
const MAX_PENDING_IDS = 5_000

export interface AlertsServiceOptions {
  db: Db
  /** The evaluation's SQL and the recipients of its alerts. */
  repository: AlertsRepository
  /** The mail module's outbox: alert mails are queued in the evaluation's transaction. */
  outbox: OutboxRepository
  publicUrl: string
  log: Log
  now?: () => Date
  /** Called after a transaction queued mails (the process's outbox worker sends them soon). */
  onMailQueued?: () => void
}

/**
 * Raises alerts after sync runs and postback batches. Requests are coalesced and run
 * one at a time in this process, off the request path (a route or the sync never waits for
 * them); across processes the evaluation's advisory lock makes them take turns.
 */
export function createAlertsService({
  db,
  repository,
  outbox,
  publicUrl,
  log,
  now = () => new Date(),
  onMailQueued,
}: AlertsServiceOptions) {
  let pendingAll = false
  const pendingIds = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let closed = false

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
    if (queued > 0) onMailQueued?.()
    return raised
  }

  async function drain(): Promise<void> {
    while ((pendingAll || pendingIds.size > 0) && !closed) {
      const ids = pendingAll ? null : [...pendingIds]
      pendingAll = false
      pendingIds.clear()
      try {
        await evaluate(ids)
      } catch (error) {
        log.error({ err: error }, 'alert evaluation failed')
      }
    }
  }

  function run() {
    running = drain().finally(() => {
      running = null
      if (pendingAll || pendingIds.size > 0) kick(0)
    })
  }

  function kick(delayMs: number) {
    if (closed || timer || running) return
    timer = setTimeout(() => {
      timer = null
      run()
    }, delayMs)
    timer.unref()
  }

  return {
    evaluate,
    /** After a sync run or a settings change: everything, soon. */
    requestAll() {
      pendingAll = true
      kick(0)
    },
    /** After a stored postback: its dispatch, with the others of the same batch. */
    notePostback(dispatchId: string) {
      if (pendingIds.size >= MAX_PENDING_IDS) pendingAll = true
      else pendingIds.add(dispatchId)
      kick(POSTBACK_DEBOUNCE_MS)
    },
    /** Tests: resolves when nothing is pending or running. */
    async idle(): Promise<void> {
      while (timer || running) {
        if (running) await running
        else await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    /** Tests: runs what is pending now, without its debounce, and resolves when nothing runs. */
    async flush(): Promise<void> {
      while (timer || running) {
        if (timer) {
          clearTimeout(timer)
          timer = null
          run()
        }
        await running
      }
    },
    async close(): Promise<void> {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      await running
    },
  }
}
export type AlertsService = ReturnType<typeof createAlertsService>
