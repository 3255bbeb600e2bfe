import { randomUUID } from 'node:crypto'
import {
  ownCompanyOnly,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MAX_PER_OWNER,
  WEBHOOK_TEST_EVENT,
  type WebhookCreate,
  type WebhookDeliveryList,
  type WebhookList,
  type WebhookSecret,
  type WebhookSubscription,
  type WebhookUpdate,
} from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import { AppError, notFound } from '../../lib/app-error'
import type { SecretBox } from '../../lib/secret-box'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { OutboundWebhooksRepository, SubscriptionRow } from './outbound-webhooks.repository'
import { newSigningSecret } from './signing'
import { urlProblem } from './url-guard'
import { ownerScopeOf, type IntegrationManager } from '../api-keys/integration-access'

export const WEBHOOK_MESSAGES = {
  notAllowed: 'Integrations are not enabled for your company. Ask an administrator to allow them.',
  notFound: 'That webhook subscription was not found.',
  deliveryNotFound: 'That delivery was not found.',
  unknownEvent: (name: string) => `Unknown event "${name}". Known events: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  tooMany: `At most ${WEBHOOK_MAX_PER_OWNER} webhook subscriptions are allowed; delete one first.`,
  secretUnreadable:
    "This subscription's secret cannot be read with the server's current key (SSO_SECRET_KEY changed). Delete it and create it again.",
} as const

/** A 400 naming the field, as the schema's own refusals do. */
const refused = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { details: [{ field, message }] })

export const secretContext = (id: string) => `webhook_subscription.secret:${id}`

function toApi(row: SubscriptionRow): WebhookSubscription {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }
}
const iso = (d: Date | null) => (d ? d.toISOString() : null)

export interface OutboundWebhooksDeps {
  db: Db
  hooks: OutboundWebhooksRepository
  activity: ActivityRepository
  box: () => SecretBox
  allowPrivateTargets: boolean
  /** Whether the caller may have integrations (the API keys setting: api-keys/integration-access.ts). */
  allowed(who: IntegrationManager): Promise<boolean>
  /** Sends the delivery job now (in the transaction when given). */
  nudge(tx?: DbOrTx): Promise<void>
}

export function createOutboundWebhooksService(deps: OutboundWebhooksDeps) {
  const { db, hooks, activity, box, allowed } = deps

  const scopeOf = ownerScopeOf

  async function visible(who: IntegrationManager, id: string): Promise<SubscriptionRow> {
    if (!(await allowed(who))) throw new AppError('FORBIDDEN', WEBHOOK_MESSAGES.notAllowed)
    const row = await hooks.find(id, scopeOf(who))
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound)
    return row
  }

  function checkEvents(events: string[]): void {
    for (const [index, name] of events.entries()) {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name)) {
        throw refused(`events/${index}`, WEBHOOK_MESSAGES.unknownEvent(name))
      }
    }
  }

  async function checkUrl(url: string): Promise<string> {
    const trimmed = url.trim()
    const problem = await urlProblem(trimmed, deps.allowPrivateTargets)
    if (problem) throw refused('url', problem)
    return trimmed
  }

  async function record(
    who: IntegrationManager,
    action: 'WEBHOOK_CREATED' | 'WEBHOOK_UPDATED' | 'WEBHOOK_DELETED' | 'WEBHOOK_SECRET_REVEALED',
    details: Record<string, unknown>,
    tx?: DbOrTx,
  ) {
    await activity.record({ action, actor: who.actor, ipAddress: who.ip, details }, tx)
  }

  return {
    async list(who: IntegrationManager): Promise<WebhookList> {
      const may = await allowed(who)
      return {
        allowed: may,
        eventTypes: [...WEBHOOK_EVENT_TYPES],
        maxSubscriptions: WEBHOOK_MAX_PER_OWNER,
        subscriptions: may ? (await hooks.list(scopeOf(who))).map(toApi) : [],
      }
    },

    async create(who: IntegrationManager, input: WebhookCreate): Promise<WebhookSecret> {
      if (!(await allowed(who))) throw new AppError('FORBIDDEN', WEBHOOK_MESSAGES.notAllowed)
      checkEvents(input.events)
      const url = await checkUrl(input.url)
      const companyId = ownCompanyOnly(who.role) ? who.companyId : null
      const id = randomUUID()
      const secret = newSigningSecret()
      await db.transaction(async (tx) => {
        // Counted in the transaction that inserts; two creates at once may both pass, which the
        // limit (a guard against runaway fan-out, not a quota) tolerates.
        if ((await hooks.countOwned(companyId, tx)) >= WEBHOOK_MAX_PER_OWNER) {
          throw new AppError('CONFLICT', WEBHOOK_MESSAGES.tooMany)
        }
        await hooks.insert(
          {
            id,
            companyId,
            createdBy: who.id,
            url,
            description: input.description?.trim() ?? '',
            events: input.events,
            secretSealed: box().seal(secret, secretContext(id)),
          },
          tx,
        )
        await record(who, 'WEBHOOK_CREATED', { webhookId: id, url, events: input.events, companyId }, tx)
      })
      return { subscription: toApi((await hooks.find(id, {}))!), secret }
    },

    async update(who: IntegrationManager, id: string, input: WebhookUpdate): Promise<WebhookSubscription> {
      const row = await visible(who, id)
      if (input.events) checkEvents(input.events)
      const url = input.url === undefined ? undefined : await checkUrl(input.url)
      const changes = {
        ...(url !== undefined ? { url } : {}),
        ...(input.events ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description.trim() } : {}),
        ...(input.status ? { status: input.status } : {}),
      }
      await db.transaction(async (tx) => {
        await hooks.update(id, changes, tx)
        await record(who, 'WEBHOOK_UPDATED', { webhookId: id, url: row.url, changes }, tx)
        // Resumed: what waited while paused goes now.
        if (input.status === 'active') await deps.nudge(tx)
      })
      return toApi((await hooks.find(id, {}))!)
    },

    async remove(who: IntegrationManager, id: string): Promise<WebhookSubscription> {
      const row = await visible(who, id)
      await db.transaction(async (tx) => {
        if (!(await hooks.remove(id, tx))) throw notFound(WEBHOOK_MESSAGES.notFound)
        await record(who, 'WEBHOOK_DELETED', { webhookId: id, url: row.url, companyId: row.companyId }, tx)
      })
      return toApi(row)
    },

    /** The signing secret again (logged): a receiver set up later, or one that lost it. */
    async revealSecret(who: IntegrationManager, id: string): Promise<WebhookSecret> {
      const row = await visible(who, id)
      const sealed = await hooks.secretOf(id)
      const secret = sealed ? box().open(sealed, secretContext(id)) : null
      if (!secret) throw new AppError('CONFLICT', WEBHOOK_MESSAGES.secretUnreadable)
      await record(who, 'WEBHOOK_SECRET_REVEALED', { webhookId: id, url: row.url })
      return { subscription: toApi(row), secret }
    },

    async deliveries(who: IntegrationManager, id: string): Promise<WebhookDeliveryList> {
      await visible(who, id)
      const rows = await hooks.deliveries(id, 100)
      return {
        deliveries: rows.map((r) => ({
          ...r,
          createdAt: r.createdAt.toISOString(),
          lastAttemptAt: iso(r.lastAttemptAt),
          nextAttemptAt: r.status === 'pending' ? iso(r.nextAttemptAt) : null,
        })),
      }
    },

    async resend(who: IntegrationManager, id: string, deliveryId: number): Promise<{ deliveryId: number }> {
      await visible(who, id)
      const created = await db.transaction(async (tx) => {
        const newId = await hooks.resend(id, deliveryId, tx)
        if (newId !== null) await deps.nudge(tx)
        return newId
      })
      if (created === null) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound)
      return { deliveryId: created }
    },

    async sendTest(who: IntegrationManager, id: string): Promise<{ deliveryId: number }> {
      const row = await visible(who, id)
      const deliveryId = await db.transaction(async (tx) => {
        const created = await hooks.insertOwnEvent(
          id,
          {
            type: WEBHOOK_TEST_EVENT,
            companyId: row.companyId,
            data: {
              subscriptionId: id,
              message: 'A test event from the Dispatch Portal.',
              sentBy: who.actor?.email ?? null,
            },
          },
          tx,
        )
        await deps.nudge(tx)
        return created
      })
      return { deliveryId }
    },
  }
}
export type OutboundWebhooksService = ReturnType<typeof createOutboundWebhooksService>
