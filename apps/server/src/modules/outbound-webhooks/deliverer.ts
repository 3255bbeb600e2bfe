import { request, type Agent } from 'undici'
import { WEBHOOK_EXCERPT_BYTES } from '@portal/shared'
import type { Db } from '../../db/client'
import type { SecretBox } from '../../lib/secret-box'
import type { MailOutbox } from '../mail/mail.parts'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { AttemptResult, ClaimedDelivery, OutboundWebhooksRepository } from './outbound-webhooks.repository'
import { secretContext } from './outbound-webhooks.service'
import { signedRequest } from './signing'
import { deliveryAgent, urlFormProblem } from './url-guard'
import { escapeHtml } from '../mail/mail-render'

interface Log {
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface DeliveryOptions {
  /** The delay before each attempt after the first; past the last, the delivery has failed. */
  retryDelaysMs?: number[]
  /** One request's limit (connect, answer headers, body). */
  timeoutMs?: number
  /** Paused when every attempt failed for this long… */
  pauseAfterMs?: number
  /** …or after this many deliveries in a row finally failed. */
  pauseAfterFinalFailures?: number
  /** Private, loopback and plain-http targets allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets?: boolean
  now?: () => Date
}

/**
 * About a day of attempts, as Standard Webhooks senders do: at once, then after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts over about 27 h).
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
const LEASE_MS = 5 * 60_000
const BATCH = 20

/** The first kilobyte of an answer, read and the rest left unread. */
async function excerptOf(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size >= WEBHOOK_EXCERPT_BYTES) break
  }
  return Buffer.concat(chunks).subarray(0, WEBHOOK_EXCERPT_BYTES).toString('utf8')
}

const messageOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error && cause.message && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message
}

/**
 * Sends due deliveries, signed (Standard Webhooks), each claimed with a lease so a stopped
 * worker's deliveries go again (at least once). A 2xx is success; anything else (3xx included:
 * redirects are never followed), a timeout or a refused connection is retried on the schedule,
 * then failed. A subscription that keeps failing is paused and its owner mailed.
 */
export function createWebhookDeliverer(deps: {
  db: Db
  hooks: OutboundWebhooksRepository
  box: () => SecretBox
  mails: MailOutbox
  activity: ActivityRepository
  log: Log
  publicUrl: string
  options?: DeliveryOptions
}) {
  const { db, hooks, box, mails, log, options = {} } = deps
  const now = options.now ?? (() => new Date())
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const timeoutMs = options.timeoutMs ?? 10_000
  const pauseAfterMs = options.pauseAfterMs ?? 24 * 3_600_000
  const pauseAfterFinalFailures = options.pauseAfterFinalFailures ?? 5
  const allowPrivate = options.allowPrivateTargets ?? false
  let agent: Agent | null = null

  async function attempt(d: ClaimedDelivery): Promise<AttemptResult> {
    const started = Date.now()
    const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Date.now() - started })
    // The URL's form again (a literal private address never reaches the socket's look-up).
    const problem = urlFormProblem(d.url, allowPrivate)
    if (problem) return done({ statusCode: null, responseExcerpt: null, error: problem })
    const secret = box().open(d.secretSealed, secretContext(d.subscriptionId))
    if (!secret) return done({ statusCode: null, responseExcerpt: null, error: 'The signing secret cannot be read.' })
    const { headers, body } = signedRequest(
      secret,
      { id: d.eventId, type: d.eventType, createdAt: d.eventCreatedAt, data: d.eventData },
      now(),
    )
    try {
      agent ??= deliveryAgent(allowPrivate, timeoutMs)
      const res = await request(d.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(timeoutMs),
      })
      const excerpt = await excerptOf(res.body).catch(() => '')
      res.body.destroy()
      const redirect = res.statusCode >= 300 && res.statusCode < 400
      return done({
        statusCode: res.statusCode,
        responseExcerpt: excerpt,
        error: redirect
          ? `Redirects are not followed (answered ${res.statusCode}${res.headers.location ? ` to ${String(res.headers.location)}` : ''}).`
          : res.statusCode >= 200 && res.statusCode < 300
            ? null
            : `The receiver answered ${res.statusCode}.`,
      })
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || /timeout/i.test(error.message))
      return done({
        statusCode: null,
        responseExcerpt: null,
        error: timedOut ? `No answer within ${timeoutMs} ms.` : messageOf(error),
      })
    }
  }

  async function settle(d: ClaimedDelivery, result: AttemptResult): Promise<void> {
    const at = now()
    const ok = result.error === null
    const attempts = d.attempts + 1
    const delay = delays[attempts - 1]
    const outcome = ok ? 'succeeded' : delay === undefined ? 'failed' : 'retry'
    const retryAt = outcome === 'retry' ? new Date(at.getTime() + delay!) : null
    await db.transaction(async (tx) => {
      if (!(await hooks.recordAttempt(d, { ...result, outcome, at, retryAt }, tx))) return
      if (ok) return hooks.noteSuccess(d.subscriptionId, tx)
      const state = await hooks.noteFailure(d.subscriptionId, at, outcome === 'failed', tx)
      if (!state || state.status !== 'active') return
      const failingFor = at.getTime() - state.failingSince.getTime()
      const reason =
        state.finalFailures >= pauseAfterFinalFailures
          ? `Paused after ${state.finalFailures} deliveries in a row failed.`
          : failingFor >= pauseAfterMs
            ? `Paused: every attempt failed for ${Math.round(failingFor / 3_600_000)} hours.`
            : null
      if (!reason) return
      const paused = await hooks.pauseForFailures(d.subscriptionId, reason, tx)
      if (!paused) return
      log.warn({ webhookId: d.subscriptionId, reason }, 'webhook subscription paused')
      await deps.activity.record(
        { action: 'WEBHOOK_PAUSED', actor: null, details: { webhookId: d.subscriptionId, url: paused.url, reason } },
        tx,
      )
      if (paused.ownerEmail) {
        const link = `${deps.publicUrl}/integrations/webhooks`
        const text = `Your webhook subscription to ${paused.url} was paused: ${reason}\n\nThe last answer: ${result.error}\n\nFix the receiver, then resume the subscription on ${link}. Events that happen while it is paused are not sent to it.`
        await mails.enqueue(
          [
            {
              idempotencyKey: `webhook-paused:${d.subscriptionId}:${at.getTime()}`,
              kind: 'alert',
              userId: paused.ownerId,
              to: paused.ownerEmail,
              subject: 'Webhook paused after repeated failures',
              text,
              html: `<p>Your webhook subscription to <strong>${escapeHtml(paused.url)}</strong> was paused: ${escapeHtml(reason)}</p><p>The last answer: ${escapeHtml(result.error ?? '')}</p><p>Fix the receiver, then resume the subscription on <a href="${escapeHtml(link)}">the Webhooks screen</a>. Events that happen while it is paused are not sent to it.</p>`,
            },
          ],
          tx,
        )
      }
    })
  }

  let running: Promise<number> | null = null

  /** One pass: everything due now (retries that come due within it too). */
  async function pass(): Promise<number> {
    await hooks.sweep(now())
    let sent = 0
    for (;;) {
      const claimed = await hooks.claim({ now: now(), limit: BATCH, leaseMs: LEASE_MS })
      if (claimed.length === 0) return sent
      // Different subscriptions and orders in parallel; one order key's deliveries are never
      // claimed together (the claim skips a delivery behind an open one).
      await Promise.all(
        claimed.map(async (d) => {
          const result = await attempt(d)
          await settle(d, result)
          if (result.error === null) sent += 1
          else log.warn({ webhookId: d.subscriptionId, deliveryId: d.id, error: result.error }, 'webhook not delivered')
        }),
      )
    }
  }

  return {
    /** One pass now (or the one in flight); resolves with the deliveries that succeeded. */
    runOnce(): Promise<number> {
      running ??= pass().finally(() => {
        running = null
      })
      return running
    },
    async close(): Promise<void> {
      await running?.catch(() => undefined)
      await agent?.close().catch(() => undefined)
      agent = null
    },
  }
}
export type WebhookDeliverer = ReturnType<typeof createWebhookDeliverer>
