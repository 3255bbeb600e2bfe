import type { FastifyInstance } from 'fastify'
import type { AppConfig } from './config'
import { LOG_PARTITIONS_JOB, logPartitionsJob } from './modules/activity-logs/log-partitions'
import type { LogsRepository } from './modules/activity-logs/logs.repository'
import { alertJobs, type AlertsService } from './modules/alerts/alerts.service'
import type { AlertsRepository } from './modules/alerts/alerts.repository'
import type { Database } from './db/client'
import { createJobEngine, type JobEngine } from './modules/jobs/job-engine'
import { MAIL_OUTBOX_JOB, mailJobs, type MailParts } from './modules/mail/mail.parts'
import type { ScormCloudClient } from './modules/scorm-cloud/scorm-cloud.client'
import { statementMailJobs, type StatementMailsDeps } from './modules/statements/statement-mails'
import { SYNC_JOB, syncJob, syncSchedule } from './modules/sync/sync.scheduler'
import type { SyncService } from './modules/sync/sync.service'

/** The node's job engine: PORTAL_ROLE web sends jobs but runs none. */
export function jobEngineFor(
  app: FastifyInstance,
  config: AppConfig,
  database: Database,
  background: boolean,
): JobEngine {
  return createJobEngine({
    target: database.jobTarget,
    log: app.log,
    working: config.role !== 'web',
    background,
    instanceName: config.role,
  })
}

/**
 * Background work, all of it, as jobs of the one engine (docs/architecture.md, "Background
 * work"): the log's month partitions, the scheduled sync (and the start-up sync server.ts sends),
 * the alert evaluations, the outbox, the scheduled mails and the monthly usage statements. The engine starts when the app is
 * ready; on close, the sync in flight is told to stop, the jobs running here finish (up to 8 s;
 * a job cut short is handed out again after its expiry),
 * then the client and the mail transport are closed.
 */
export function defineBackgroundWork(
  app: FastifyInstance,
  config: AppConfig,
  parts: {
    jobs: JobEngine
    sync: SyncService | null
    client: ScormCloudClient | null
    alerts: AlertsService
    alertsRepository: AlertsRepository
    mail: MailParts
    logs: LogsRepository
    /** The monthly usage statement mails (modules/statements). */
    statementMails: StatementMailsDeps
  },
): void {
  const { jobs, sync, client, mail } = parts
  // A sync run commits in many transactions; its alert evaluation is sent once it has finished.
  sync?.onFinished(() => {
    parts.alerts.requestAll().catch((err: unknown) => app.log.error({ err }, 'could not send the alert evaluation job'))
  })
  const partitions = logPartitionsJob(parts.logs)
  const mailWork = mailJobs(mail)
  jobs.define(partitions.job, ...alertJobs(parts.alerts, parts.alertsRepository), ...mailWork.jobs)
  jobs.schedule(partitions.schedule)
  const statements = statementMailJobs(parts.statementMails)
  jobs.define(statements.job)
  jobs.schedule(statements.schedule)
  for (const s of mailWork.schedules) jobs.schedule(s)
  if (sync) {
    jobs.define(syncJob(sync, app.log))
    const every = syncSchedule(config.syncIntervalMinutes)
    if (every) jobs.schedule({ name: SYNC_JOB, cron: every, data: { trigger: 'schedule' } })
  }
  app.addHook('onReady', async () => {
    await jobs.start()
    if (config.role === 'web') return
    await jobs.send(LOG_PARTITIONS_JOB, {})
    // Mails a previous process left queued (or claimed, once their lease ends) go now, not at the
    // next minute.
    await jobs.send(MAIL_OUTBOX_JOB, {})
  })
  app.addHook('onClose', async () => {
    await sync?.close()
    await jobs.stop()
    await client?.close()
    await mail.worker?.stop()
    mail.transport?.close()
  })
}
