import { randomUUID, timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  ownCompanyOnly,
  WEBHOOK_EVENT_TYPES,
  WebhookCatcherSchema,
  type WebhookCatcher as Caught,
} from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { requireUser } from '../../plugins/app/auth'
import type { SecretBox } from '../../lib/secret-box'
import type { OutboundWebhooksRepository } from './outbound-webhooks.repository'
import { secretContext } from './outbound-webhooks.service'
import { newSigningSecret, sign } from './signing'

/** Demo mode's built-in receiver, under the API (the catcher's own URL is its subscriptions' URL). */
export const DEMO_CATCHER_PATH = '/api/demo/webhook-catcher'
const KEEP = 50

interface CaughtItem {
  id: string
  type: string
  receivedAt: string
  verified: boolean
  body: string
  companyId: string | null
}

/**
 * Demo mode only: a receiver inside the portal that keeps the last deliveries it caught and
 * checks each signature against the secrets of the subscriptions pointing at it, so a newcomer
 * sees signed deliveries arrive (on the Webhooks screen) without running a server of their own.
 */
export function createWebhookCatcher(deps: {
  hooks: OutboundWebhooksRepository
  box: () => SecretBox
  publicUrl: string
}) {
  const caught: CaughtItem[] = []
  const url = `${deps.publicUrl}${DEMO_CATCHER_PATH}`

  async function verify(headers: Record<string, string | undefined>, body: string) {
    const id = headers['webhook-id'] ?? ''
    const timestamp = Number(headers['webhook-timestamp'])
    const presented = (headers['webhook-signature'] ?? '').split(' ')
    for (const sub of await deps.hooks.subscriptionsAt(url)) {
      const secret = deps.box().open(sub.secretSealed, secretContext(sub.id))
      if (!secret || !Number.isFinite(timestamp)) continue
      const expected = Buffer.from(sign(secret, id, timestamp, body))
      if (presented.some((p) => p.length === expected.length && timingSafeEqual(Buffer.from(p), expected))) {
        return { verified: true, companyId: sub.companyId }
      }
    }
    return { verified: false, companyId: null }
  }

  return {
    url,
    async receive(headers: Record<string, string | undefined>, body: string): Promise<boolean> {
      const { verified, companyId } = await verify(headers, body)
      let type = 'unknown'
      try {
        type = String((JSON.parse(body) as { type?: unknown }).type ?? 'unknown')
      } catch {
        // Kept as caught: the screen shows what arrived, readable or not.
      }
      caught.unshift({
        id: headers['webhook-id'] ?? '',
        type,
        receivedAt: new Date().toISOString(),
        verified,
        body: body.slice(0, 4096),
        companyId,
      })
      caught.length = Math.min(caught.length, KEEP)
      return verified
    },
    /** What it caught for this caller: a client sees its own company's deliveries only. */
    list(companyId: string | null | undefined): Caught {
      const mine = caught.filter((c) => companyId === undefined || c.companyId === companyId)
      return { url, caught: mine.map(({ companyId: _c, ...item }) => item) }
    },
    /**
     * The demo's subscription: the client company may use integrations, and its client user
     * has a subscription to every event pointing here. Made once.
     */
    async seed(companyId: string, ownerEmail: string): Promise<void> {
      if ((await deps.hooks.subscriptionsAt(url)).length > 0) return
      const ownerId = await deps.hooks.userIdByEmail(ownerEmail)
      if (!ownerId) return
      await deps.hooks.allowCompany(companyId)
      const id = randomUUID()
      await deps.hooks.insert({
        id,
        companyId,
        createdBy: ownerId,
        url,
        description: 'Demo: the built-in catcher (shown below)',
        events: [...WEBHOOK_EVENT_TYPES],
        secretSealed: deps.box().seal(newSigningSecret(), secretContext(id)),
      })
    },
  }
}
export type WebhookCatcher = ReturnType<typeof createWebhookCatcher>

export const demoCatcherRoutes: FastifyPluginAsyncTypebox<{ catcher: WebhookCatcher }> = async (app, { catcher }) => {
  const tags = ['webhooks']
  // The body as sent: the signature covers its exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) =>
    done(null, body),
  )
  app.post('/', { config: { public: true }, schema: { tags, hide: true } }, async (request, reply) => {
    const verified = await catcher.receive(request.headers as Record<string, string | undefined>, String(request.body))
    if (!verified) {
      return reply
        .code(401)
        .send({ code: 'UNAUTHENTICATED', message: 'The signature does not match any subscription to this receiver.' })
    }
    return { received: true, verified }
  })
  app.get(
    '/',
    {
      config: { permission: 'webhook.manage' as const },
      schema: { tags, hide: true, response: { 200: WebhookCatcherSchema, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const user = requireUser(request)
      return catcher.list(ownCompanyOnly(user.role) ? user.companyId : undefined)
    },
  )
}
