import { MailSendError, type MailTransport } from './mail-transport'
import type { OutboxRepository } from './outbox.repository'

interface Log {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface OutboxWorkerOptions {
  outbox: OutboxRepository
  transport: MailTransport
  log: Log
  now?: () => Date
  /**
   * A claimed row is this process's for this long, and again from the start of its handover;
   * past it, a crash is assumed: sent again if its handover never began, else uncertain.
   */
  leaseMs?: number
  batch?: number
  /** Attempts before a mail is given up (failed). */
  maxAttempts?: number
  /** Doubling delay before the next attempt, from this, capped at one hour. */
  baseDelayMs?: number
  /** Messages-IDs name this host (from PUBLIC_URL). */
  domain: string
}

export const OUTBOX_LEASE_MS = 5 * 60_000
export const OUTBOX_MAX_ATTEMPTS = 8

export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 60 * 60_000)
}

/**
 * Sends the outbox. Each pass sweeps abandoned claims, claims due rows with SKIP
 * LOCKED (each process its own), and sends them one by one: each mail's handover start is
 * committed before its SMTP transaction, and the row is marked by its claim token after.
 * Failures are recorded on the row and retried with a doubling delay; nothing here ever
 * reaches a request.
 */
export function createOutboxWorker(options: OutboxWorkerOptions) {
  const {
    outbox,
    transport,
    log,
    now = () => new Date(),
    leaseMs = OUTBOX_LEASE_MS,
    batch = 20,
    maxAttempts = OUTBOX_MAX_ATTEMPTS,
    baseDelayMs = 30_000,
  } = options
  let running: Promise<number> | null = null
  let again = false
  let stopped = false

  async function pass(): Promise<number> {
    await outbox.sweep(now())
    let sent = 0
    for (;;) {
      const mails = await outbox.claim({ now: now(), limit: batch, leaseMs })
      if (mails.length === 0) return sent
      for (const mail of mails) {
        const attempts = await outbox.startHandover(mail, now(), leaseMs)
        if (attempts === null) {
          log.warn({ mailId: mail.id }, 'mail claim lost before sending (its lease ran out); not sent by this pass')
          continue
        }
        const failure = await transport
          .send({ ...mail, messageId: `<${mail.idempotencyKey.replace(/[^\w.-]/g, '.')}@${options.domain}>` })
          .then(
            () => null,
            (error: unknown) => ({ error }),
          )
        // Outside the send's error handling: a mail the SMTP server accepted is never marked for
        // a retry. If marking it sent fails, the pass stops and the row, handed over, becomes
        // uncertain when its lease runs out.
        if (failure === null) {
          await outbox.markSent(mail, now())
          sent += 1
          continue
        }
        const { error } = failure
        const message = error instanceof Error ? error.message : String(error)
        const permanent = error instanceof MailSendError && error.permanent
        const retryAt =
          permanent || attempts >= maxAttempts ? null : new Date(now().getTime() + retryDelayMs(attempts, baseDelayMs))
        await outbox.markFailed(mail, message, retryAt)
        log.warn({ mailId: mail.id, attempts, error: message, retry: retryAt !== null }, 'mail not sent')
      }
      if (stopped || mails.length < batch) return sent
    }
  }

  /** One pass now (or right after the one in flight); resolves with the mails it sent. */
  function runOnce(): Promise<number> {
    if (running) {
      again = true
      return running
    }
    running = pass()
      .catch((error: unknown) => {
        log.error({ err: error }, 'outbox pass failed')
        return 0
      })
      .finally(() => {
        running = null
        if (again && !stopped) {
          again = false
          void runOnce()
        }
      })
    return running
  }

  return {
    runOnce,
    async stop() {
      stopped = true
      await running
    },
  }
}
export type OutboxWorker = ReturnType<typeof createOutboxWorker>
