import type { FastifyInstance } from 'fastify'
import type { Db } from './db/client'
import type { ActivityRepository } from './modules/activity-logs/activity.repository'
import { createAlertSettingsRepository } from './modules/alerts/alert-settings.repository'
import { alertSettingsRoutes, notificationsRoutes } from './modules/alerts/alerts.routes'
import type { AlertsService } from './modules/alerts/alerts.service'
import { createNotificationsRepository } from './modules/alerts/notifications.repository'
import { createAlertSettingsService, createNotificationsService } from './modules/alerts/notifications.service'
import type { JobEngine } from './modules/jobs/job-engine'
import jobsRoutes from './modules/jobs/jobs.routes'
import { createJobsService } from './modules/jobs/jobs.service'
import type { OutboxRepository } from './modules/mail/outbox.repository'
import outboxRoutes from './modules/mail/outbox.routes'
import { createOutboxService } from './modules/mail/outbox.service'

/**
 * Part of the composition root (app.ts): the notification bell, and the admin screens over the
 * background machinery (alert settings, the mail outbox, the job engine's queues).
 */
export async function registerAdminRoutes(
  app: FastifyInstance,
  deps: {
    db: Db
    activity: ActivityRepository
    alerts: AlertsService
    outbox: OutboxRepository
    jobs: JobEngine
    smtpConfigured: boolean
  },
): Promise<void> {
  const notifications = createNotificationsService(createNotificationsRepository(deps.db))
  await app.register(notificationsRoutes, { prefix: '/api/notifications', notifications })
  const settings = createAlertSettingsService({
    db: deps.db,
    settings: createAlertSettingsRepository(deps.db),
    activity: deps.activity,
    alerts: deps.alerts,
  })
  await app.register(alertSettingsRoutes, { prefix: '/api/admin', settings })
  const outbox = createOutboxService(deps.outbox, { smtpConfigured: deps.smtpConfigured })
  await app.register(outboxRoutes, { prefix: '/api/admin', outbox })
  await app.register(jobsRoutes, { prefix: '/api/admin/jobs', jobs: createJobsService(deps.jobs) })
}
