import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppConfig } from './config'
import type { Database, Db } from './db/client'
import { createTokenSigner } from './lib/tokens'
import { authPlugin } from './plugins/app/auth'
import { backpressurePlugin } from './plugins/app/backpressure'
import { errorHandlerPlugin } from './plugins/app/error-handler'
import { inputGuardPlugin } from './plugins/app/input-guard'
import { jsonBoundsKeywords } from './lib/json-bounds'
import { buildValidator } from './lib/validators'
import { securityPlugin } from './plugins/external/security'
import { docsPlugin } from './plugins/external/docs'
import { spaPlugin } from './plugins/external/spa'
import healthRoutes from './modules/health/health.routes'
import authRoutes from './modules/auth/auth.routes'
import { createAuthService } from './modules/auth/auth.service'
import type { DEFAULT_THROTTLE } from './modules/auth/login-throttle'
import { createLoginThrottle } from './modules/auth/login-throttle'
import { salesUsersRoutes, usersRoutes } from './modules/users/users.routes'
import { createUsersService } from './modules/users/users.service'
import activityRoutes from './modules/activity-logs/activity.routes'
import { createLogsService } from './modules/activity-logs/logs.service'
import { scheduleLogPartitions } from './modules/activity-logs/log-partitions'
import { createSyncParts } from './modules/sync/sync.parts'
import syncRoutes from './modules/sync/sync.routes'
import { startSyncScheduler } from './modules/sync/sync.scheduler'
import type { SyncService } from './modules/sync/sync.service'
import type { ScormCloudClient } from './modules/scorm-cloud/scorm-cloud.client'
import type { TransportOptions } from './modules/scorm-cloud/http-transport'
import webhookRoutes from './modules/webhooks/webhooks.routes'
import { createWebhooksService } from './modules/webhooks/webhooks.service'
import {
  createAlertsParts,
  OUTBOX_POLL_MS,
  startScheduledMails,
  type AlertsPartsOptions,
} from './modules/alerts/alerts.parts'
import type { AlertsService } from './modules/alerts/alerts.service'
import { alertSettingsRoutes, notificationsRoutes } from './modules/alerts/alerts.routes'
import { createAlertSettingsService, createNotificationsService } from './modules/alerts/notifications.service'
import type { OutboxWorker } from './modules/mail/outbox.worker'
import outboxRoutes from './modules/mail/outbox.routes'
import { createOutboxService } from './modules/mail/outbox.service'
import preferencesRoutes from './modules/profile/preferences.routes'
import { createPreferencesService } from './modules/profile/preferences.service'
import dispatchesRoutes from './modules/dispatches/dispatches.routes'
import { createDispatchesService } from './modules/dispatches/dispatches.service'
import { createDispatchUpdateService } from './modules/dispatches/dispatch-update.service'
import chartsRoutes from './modules/reports/charts.routes'
import { createChartsService } from './modules/reports/charts.service'
import reportExportRoutes from './modules/reports/report-export.routes'
import { createReportExportService } from './modules/reports/report-export'
import learnersRoutes from './modules/learners/learners.routes'
import { createLearnersService } from './modules/learners/learners.service'
import dispatchActionsRoutes from './modules/dispatches/dispatch-actions.routes'
import dispatchPackagesRoutes from './modules/dispatches/dispatch-packages.routes'
import { createDispatchCreateService } from './modules/dispatches/dispatch-create.service'
import { createDispatchCountService } from './modules/dispatches/dispatch-count.service'
import { createDispatchPackagesService } from './modules/dispatches/dispatch-packages.service'
import reportsRoutes from './modules/reports/reports.routes'
import { createReportsService } from './modules/reports/reports.service'
import companiesRoutes from './modules/companies/companies.routes'
import { createCompaniesService } from './modules/companies/companies.service'
import coursesRoutes from './modules/courses/courses.routes'
import { createCoursesService } from './modules/courses/courses.service'
import { createCourseEditService } from './modules/courses/course-edit.service'
import courseRequestsRoutes from './modules/course-requests/course-requests.routes'
import { createCourseRequestsService } from './modules/course-requests/course-requests.service'
import requestFulfilRoutes from './modules/course-requests/request-fulfil.routes'
import { createRequestFulfilService } from './modules/course-requests/request-fulfil.service'
import { createUsersRepository } from './modules/users/users.repository'
import { recordActivity } from './modules/activity-logs/activity.repository'
import { createSsoRepository } from './modules/sso/sso.repository'
import { createSsoPasswordRule, createSsoService, type SsoDemoInfo } from './modules/sso/sso.service'
import { ssoAdminRoutes, ssoAuthRoutes, ssoStaffAdminRoutes } from './modules/sso/sso.routes'

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig
    database: Database
    db: Db
    closing: boolean
    /** The one SCORM Cloud client of this process (shared breaker); null without credentials. */
    scormCloud: ScormCloudClient | null
    /** The mirror sync; null without SCORM Cloud credentials. */
    sync: SyncService | null
    /** Issue #17: the alert evaluation of this process. */
    alerts: AlertsService
    /** Issue #17: the outbox worker; null without SMTP_URL (mails stay in the outbox). */
    outboxWorker: OutboxWorker | null
    /** Issue #17: queues due digests and reports now (the minute tick; tests call it). */
    queueScheduledMails(now?: Date): Promise<number>
  }
}

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist')

/** Tokens and passwords never reach the request log. */
export const REDACT = ['req.headers["x-auth-token"]', 'req.headers.authorization', 'req.headers.cookie']

/** One set of Fastify options for the server and for the tests (STYLE.md, fastify/demo). */
export function serverOptions(config: AppConfig, logger: FastifyServerOptions['logger'] = undefined) {
  return {
    logger: logger ?? { level: config.logLevel, redact: REDACT },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false as const,
    // One line per request (the onResponse hook in buildApp) instead of Fastify's two: logging is a
    // fair share of a cheap request's CPU (issue #7).
    logController: new LogController({ disableRequestLogging: true }),
    // Issue #20: the router's own refusals (a path that is not percent-encoded UTF-8, a path
    // parameter over 100 characters) in the shape of every other error, with the field named.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      const message = tooLong ? 'must not be longer than 100 characters' : 'must be valid percent-encoded UTF-8'
      void reply
        .code(tooLong ? 414 : 400)
        .send({ code: 'VALIDATION_FAILED', message: `The path ${message}.`, details: [{ field: 'path', message }] })
    },
    ajv: {
      customOptions: {
        removeAdditional: 'all' as const,
        coerceTypes: 'array' as const,
        useDefaults: true,
        allErrors: false,
      },
      // maxDepth and maxJsonLength: the bounds of free-form JSON fields (issue #20).
      plugins: [jsonBoundsKeywords],
    },
    // Bodies refuse an array where a scalar is declared; query strings keep it (lib/validators.ts).
    schemaController: { compilersFactory: { buildValidator: buildValidator() } },
  } satisfies FastifyServerOptions
}

export interface AppOptions {
  config: AppConfig
  database: Database
  logger?: FastifyServerOptions['logger']
  throttle?: typeof DEFAULT_THROTTLE
  /** Tests only: shorter SCORM Cloud timeouts, backoff and breaker period (issue #8). */
  scormCloudTransport?: Partial<TransportOptions>
  /** Issue #17 tests: their own mail transport, attachment builder, and no background timers. */
  alerts?: AlertsPartsOptions & {
    /** Background timers (outbox every 15 s, scheduled mails every minute); tests drive them by hand. */
    timers?: boolean
  }
  /** Demo mode's built-in OIDC provider, listed on the sign-in screen (server.ts starts it). */
  ssoDemo?: SsoDemoInfo | null
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options
  const app = Fastify(serverOptions(config, options.logger)).withTypeProvider<TypeBoxTypeProvider>()
  app.decorate('config', config)
  app.decorate('database', database)
  app.decorate('db', database.db)
  app.decorate('closing', false)
  app.addHook('preClose', async () => {
    app.closing = true
  })
  // Issue #8: a request still in flight at shutdown is answered, then its keep-alive connection
  // is closed; otherwise the idle socket would hold the server's close open (keepAliveTimeout 72 s).
  app.addHook('onSend', async (_request, reply) => {
    if (app.closing) void reply.header('connection', 'close')
  })
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: { method: request.method, url: request.url, remoteAddress: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    )
  })

  const signer = createTokenSigner(config.jwtSecret)
  await app.register(errorHandlerPlugin)
  await app.register(backpressurePlugin, { waiting: database.waiting, queueLimit: config.databaseQueueLimit })
  await app.register(securityPlugin, { config })
  await app.register(inputGuardPlugin)
  await app.register(authPlugin, { signer })
  await app.register(docsPlugin)

  // The composition root: every service is built here and handed to its module's routes.
  const db = database.db
  const throttle = createLoginThrottle(db, options.throttle)
  const ssoRepository = createSsoRepository(db)
  const auth = createAuthService({
    db,
    signer,
    throttle,
    sessionMaxHours: config.sessionMaxHours,
    passwordRule: createSsoPasswordRule(ssoRepository),
  })
  const logs = createLogsService(db, app.log)
  const users = createUsersService(db, { logs })
  const sso = createSsoService({
    db,
    repositories: { sso: ssoRepository, users: createUsersRepository(db) },
    auth,
    activity: { record: recordActivity },
    config,
    log: app.log,
    demo: options.ssoDemo ?? null,
  })

  await app.register(healthRoutes, { prefix: '/api' })
  await app.register(authRoutes, { prefix: '/api/auth', auth, users })
  await app.register(ssoAuthRoutes, {
    prefix: '/api/auth/sso',
    sso,
    secureCookie: config.publicUrl.startsWith('https:'),
  })
  await app.register(ssoAdminRoutes, { prefix: '/api/admin/companies', sso })
  await app.register(ssoStaffAdminRoutes, { prefix: '/api/admin/sso/staff', sso })
  await app.register(usersRoutes, { prefix: '/api/users', users })
  await app.register(salesUsersRoutes, { prefix: '/api/admin/users', users })
  await app.register(activityRoutes, { prefix: '/api/logs', logs })

  // Issue #3: the SCORM Cloud client and the mirror sync; without credentials both are null and
  // the sync routes answer 503. Issue #17: alerts are evaluated after every sync run and postback
  // batch (the webhook calls app.alerts.notePostback); due mails go through the outbox worker.
  const { client, sync, admin } = createSyncParts(config, database, options.scormCloudTransport ?? {}, app.log)
  const mail = createAlertsParts(config, db, app.log, options.alerts)
  sync?.onFinished(() => mail.alerts.requestAll())
  app.decorate('scormCloud', client)
  app.decorate('sync', sync)
  app.decorate('alerts', mail.alerts)
  app.decorate('outboxWorker', mail.worker)
  app.decorate('queueScheduledMails', mail.queueScheduledMails)

  // Background work, all of it: started when the app is ready (the log's month partitions made
  // ahead, the sync scheduler, the outbox worker, the scheduled mails' minute tick; tests may turn
  // the last two off), stopped on close, where the sync run and alert evaluation in flight finish
  // before the client, the worker and the mail transport are closed.
  let timers: { stop(): void }[] = []
  app.addHook('onReady', async () => {
    timers.push(scheduleLogPartitions(db, app.log))
    if (sync) timers.push(startSyncScheduler(sync, config.syncIntervalMinutes, app.log))
    if (options.alerts?.timers === false) return
    mail.worker?.start(OUTBOX_POLL_MS)
    timers.push(startScheduledMails(mail, app.log))
  })
  app.addHook('onClose', async () => {
    for (const timer of timers) timer.stop()
    timers = []
    await sync?.close()
    await client?.close()
    await mail.alerts.close()
    await mail.worker?.stop()
    mail.transport?.close()
  })

  await app.register(syncRoutes, { prefix: '/api', admin })
  const notifications = createNotificationsService(db)
  await app.register(notificationsRoutes, { prefix: '/api/notifications', notifications })
  const settings = createAlertSettingsService(db, mail.alerts)
  await app.register(alertSettingsRoutes, { prefix: '/api/admin', settings })
  const outbox = createOutboxService(db, { smtpConfigured: config.smtpUrl !== null })
  await app.register(outboxRoutes, { prefix: '/api/admin', outbox })
  await app.register(preferencesRoutes, { prefix: '/api/profile', preferences: createPreferencesService(db) })
  await app.register(webhookRoutes, { prefix: '/api/webhooks/scorm-cloud', webhooks: createWebhooksService(db) })

  // Edits go to SCORM Cloud first, then the mirror (the client is null without credentials).
  const dispatches = createDispatchesService(db, {
    cache: config.readCache,
    reusePlans: database.kind === 'postgres',
  })
  const providerDeps = { db, dispatches, client: () => client }
  await app.register(dispatchesRoutes, {
    prefix: '/api/dispatches',
    dispatches,
    updates: createDispatchUpdateService(providerDeps),
  })
  await app.register(reportsRoutes, {
    prefix: '/api/reports',
    reports: createReportsService(db, dispatches, { cache: config.readCache }),
  })
  await app.register(chartsRoutes, {
    prefix: '/api/reports/charts',
    charts: createChartsService(db, dispatches, { cache: config.readCache }),
  })
  await app.register(companiesRoutes, { prefix: '/api/admin/companies', companies: createCompaniesService(db) })
  // GET /api/dispatches/courses is static: it wins over /api/dispatches/:id.
  const courses = createCoursesService(db)
  await app.register(coursesRoutes, { prefix: '/api', courses, edits: createCourseEditService({ db, courses }) })
  await app.register(courseRequestsRoutes, {
    prefix: '/api/course-requests',
    requests: createCourseRequestsService(db),
  })
  await app.register(dispatchActionsRoutes, {
    prefix: '/api/dispatches',
    creates: createDispatchCreateService(providerDeps),
    counts: createDispatchCountService(providerDeps),
  })
  await app.register(dispatchPackagesRoutes, {
    prefix: '/api/dispatches',
    packages: createDispatchPackagesService(providerDeps),
  })
  await app.register(requestFulfilRoutes, {
    prefix: '/api/course-requests',
    fulfilments: createRequestFulfilService(providerDeps),
  })
  await app.register(reportExportRoutes, {
    prefix: '/api/reports',
    exports: createReportExportService(db, dispatches, app.log),
  })
  await app.register(learnersRoutes, {
    prefix: '/api/learners',
    learners: createLearnersService(db, app.log, { cache: config.readCache }),
  })

  await app.register(spaPlugin, { distDir: config.webDistDir ?? DEFAULT_WEB_DIST })
  return app
}
