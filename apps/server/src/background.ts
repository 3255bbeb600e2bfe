import type { FastifyInstance } from 'fastify'
import type { AppConfig } from './config'
import { LOG_PARTITIONS_JOB, logPartitionsJob } from './modules/activity-logs/log-partitions'
import type { LogsRepository } from './modules/activity-logs/logs.repository'
import { alertJobs, type AlertsService } from './modules/alerts/alerts.service'
import type { AlertsRepository } from './modules/alerts/alerts.repository'
import type { Database } from './db/client'
import { analyzeStaleTables } from './db/statistics'
import { vacuumForIndexOnlyScans } from './db/visibility'
import { createJobEngine, defineSweep, type JobEngine } from './modules/jobs/job-engine'
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

export const PLANNER_STATISTICS_JOB = 'planner-statistics'

/**
 * The planner's statistics of every table that changed enough since its last ANALYZE
 * (db/statistics.ts). PGlite has no autovacuum, so without this a table that grows by the
 * portal's own writes (the activity log, above all) keeps the statistics of its first day, and
 * its searches are planned for a handful of rows where thousands come. The tables read by
 * index-only scans are vacuumed when less than half of them is marked all-visible (without
 * that, PGlite read the log's day counts through the table). On PostgreSQL autovacuum usually
 * gets there first (its thresholds are lower), and the checks read only the catalogue.
 */
function plannerStatisticsJob(database: Database) {
  return {
    job: defineSweep(PLANNER_STATISTICS_JOB, async () => ({
      analyzed: await analyzeStaleTables(database.db),
      vacuumed: await vacuumForIndexOnlyScans(database.db),
    })),
    schedule: { name: PLANNER_STATISTICS_JOB, cron: '*/10 * * * *' },
  }
}

/**
 * Background work, all of it, as jobs of the one engine (docs/architecture.md, "Background
 * work"): the log's month partitions, the planner's statistics, the scheduled sync (and the start-up sync server.ts sends),
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
    database: Database
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
  const statistics = plannerStatisticsJob(parts.database)
  const mailWork = mailJobs(mail)
  jobs.define(partitions.job, statistics.job, ...alertJobs(parts.alerts, parts.alertsRepository), ...mailWork.jobs)
  jobs.schedule(partitions.schedule)
  jobs.schedule(statistics.schedule)
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
    // Rows written while no node ran (a restore, a bulk load) are planned for from the start.
    await jobs.send(PLANNER_STATISTICS_JOB, {})
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
