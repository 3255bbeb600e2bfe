import type { FastifyInstance } from 'fastify'
import { perApp } from '../../lib/per-app'
import type { AppOptions } from '../../app-parts'
import type { AppConfig } from '../../config'
import { generatedSsoKey } from '../../config'
import type { Db, DbOrTx } from '../../db/client'
import { createSecretBox, type SecretBox } from '../../lib/secret-box'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import { defineSweep, type JobEngine } from '../jobs/job-engine'
import type { MailOutbox } from '../mail/mail.parts'
import { createWebhookDeliverer, type DeliveryOptions, type WebhookDeliverer } from './deliverer'
import { createOutboundWebhooksRepository } from './outbound-webhooks.repository'
import { outboundWebhooksRoutes } from './outbound-webhooks.routes'
import {
  createOutboundWebhooksService,
  type OutboundWebhooksDeps,
  type OutboundWebhooksService,
} from './outbound-webhooks.service'
import { createWebhookCatcher, demoCatcherRoutes, DEMO_CATCHER_PATH, type WebhookCatcher } from './demo-catcher'

/** The delivery pass: one waiting at most (a pass sends everything due; claims keep passes apart). */
export const WEBHOOK_DELIVER_JOB = 'webhook-deliver'

export interface OutboundWebhooksParts {
  service: OutboundWebhooksService
  deliverer: WebhookDeliverer
  /** Demo mode's built-in receiver; null outside demo mode. */
  catcher: WebhookCatcher | null
  /** Tests: sends the delivery job and runs every due job now. */
  deliverNow(): Promise<void>
}

const partsOf = perApp<OutboundWebhooksParts>('outboundWebhooksOf: not an app made by buildApp')

/** What registerOutboundWebhooks wired (tests and server.ts's demo seeding). */
export const outboundWebhooksOf = partsOf.of

/**
 * Outgoing webhooks: the subscription routes, the delivery job (every minute, and at once when
 * a working node sees a delivery due), and in demo mode the built-in catcher. Events are written
 * by the database triggers of migration 0040 in the transaction of each change.
 */
export async function registerOutboundWebhooks(
  app: FastifyInstance,
  config: AppConfig,
  deps: {
    db: Db
    jobs: JobEngine
    mails: MailOutbox
    activity: ActivityRepository
    /** Whether the caller may have integrations (the API keys service's rule). */
    allowed: OutboundWebhooksDeps['allowed']
  },
  appOptions: Pick<AppOptions, 'jobs' | 'alerts' | 'webhooks'>,
): Promise<OutboundWebhooksParts> {
  const { db, jobs } = deps
  const options: DeliveryOptions = appOptions.webhooks ?? {}
  const allowPrivateTargets = options.allowPrivateTargets ?? config.webhookAllowPrivateTargets ?? false
  let box: SecretBox | null = null
  const secrets = () => (box ??= createSecretBox(config.ssoSecretKey ?? generatedSsoKey(config.dataDir)))
  const hooks = createOutboundWebhooksRepository(db)
  const nudge = async (tx?: DbOrTx) => {
    await jobs.send(WEBHOOK_DELIVER_JOB, {}, tx ? { tx } : {})
  }
  const service = createOutboundWebhooksService({
    db,
    hooks,
    activity: deps.activity,
    box: secrets,
    allowPrivateTargets,
    allowed: deps.allowed,
    nudge,
  })
  const deliverer = createWebhookDeliverer({
    db,
    hooks,
    box: secrets,
    mails: deps.mails,
    activity: deps.activity,
    log: app.log,
    publicUrl: config.publicUrl,
    options: { ...options, allowPrivateTargets },
  })
  jobs.define(
    // The next minute's pass (or nudge) covers a failed one.
    defineSweep(WEBHOOK_DELIVER_JOB, async () => ({ delivered: await deliverer.runOnce() }), { retryLimit: 0 }),
  )
  jobs.schedule({ name: WEBHOOK_DELIVER_JOB, cron: '* * * * *' })
  await app.register(outboundWebhooksRoutes, { prefix: '/api/integrations/webhooks', hooks: service })

  const catcher = config.demoMode ? createWebhookCatcher({ hooks, box: secrets, publicUrl: config.publicUrl }) : null
  if (catcher) await app.register(demoCatcherRoutes, { prefix: DEMO_CATCHER_PATH, catcher })

  // Events written by a sync run, an alert evaluation or a postback (the triggers write them; a
  // trigger cannot send a job), and retries that fall due, go at the minute's scheduled pass; a
  // test event, a resend or a resume sends the job at once.
  app.addHook('onClose', async () => {
    await deliverer.close()
  })

  const parts: OutboundWebhooksParts = {
    service,
    deliverer,
    catcher,
    async deliverNow() {
      await nudge()
      await jobs.runDue()
    },
  }
  partsOf.remember(app, parts)
  return parts
}
