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
import { scheduleLogPartitions } from './modules/activity-logs/log-partitions'
// ---- issue #3: SCORM Cloud mirror sync and postbacks ----
import { registerSync } from './modules/sync/sync.module'
import webhookRoutes from './modules/webhooks/webhooks.routes'
// ---- end issue #3 ----
// ---- issue #17: alerts, mail outbox, preferences, scheduled reports ----
import { registerAlerts, type AlertsModuleOptions } from './modules/alerts/alerts.module'
// ---- end issue #17 ----
// ---- issue #4: dispatches and reports ----
import dispatchesRoutes from './modules/dispatches/dispatches.routes'
import { createDispatchesService } from './modules/dispatches/dispatches.service'
import { createDispatchUpdateService } from './modules/dispatches/dispatch-update.service'
import reportsRoutes from './modules/reports/reports.routes'
import { createReportsService } from './modules/reports/reports.service'
// ---- issue #16 ----
import reportExportRoutes from './modules/reports/report-export.routes'
import { createReportExportService } from './modules/reports/report-export'
import learnersRoutes from './modules/learners/learners.routes'
import { createLearnersService } from './modules/learners/learners.service'
// ---- end issue #16 ----
// ---- end issue #4 ----
// ---- issue #6: companies, activity logs (list + CSV export in activity.routes), user activity ----
import companiesRoutes from './modules/companies/companies.routes'
import { createCompaniesService } from './modules/companies/companies.service'
import userActivityRoutes from './modules/activity-logs/user-activity.routes'
// ---- end issue #6 ----
// ---- issue #5: courses and course requests ----
import coursesRoutes from './modules/courses/courses.routes'
import { createCoursesService } from './modules/courses/courses.service'
import { createCourseEditService } from './modules/courses/course-edit.service'
import courseRequestsRoutes from './modules/course-requests/course-requests.routes'
import { createCourseRequestsService } from './modules/course-requests/course-requests.service'
// ---- end issue #5 ----
// ---- issue #15: dispatch creation, request fulfilment, packages, counter reset ----
import dispatchActionsRoutes from './modules/dispatches/dispatch-actions.routes'
import dispatchPackagesRoutes from './modules/dispatches/dispatch-packages.routes'
import { createDispatchCreateService } from './modules/dispatches/dispatch-create.service'
import { createDispatchCountService } from './modules/dispatches/dispatch-count.service'
import { createDispatchPackagesService } from './modules/dispatches/dispatch-packages.service'
import requestFulfilRoutes from './modules/course-requests/request-fulfil.routes'
import { createRequestFulfilService } from './modules/course-requests/request-fulfil.service'
// ---- end issue #15 ----

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig
    database: Database
    db: Db
    closing: boolean
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
  } satisfies FastifyServerOptions
}

export interface AppOptions {
  config: AppConfig
  database: Database
  logger?: FastifyServerOptions['logger']
  throttle?: typeof DEFAULT_THROTTLE
  /** Tests only: shorter SCORM Cloud timeouts, backoff and breaker period (issue #8). */
  scormCloudTransport?: Parameters<typeof registerSync>[1]['transport']
  /** Issue #17 tests: their own mail transport, attachment builder, and no background timers. */
  alerts?: Omit<AlertsModuleOptions, 'config' | 'database'>
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

  const throttle = createLoginThrottle(database.db, options.throttle)
  const auth = createAuthService({ db: database.db, signer, throttle, sessionMaxHours: config.sessionMaxHours })
  const users = createUsersService(database.db)

  await app.register(healthRoutes, { prefix: '/api' })
  await app.register(authRoutes, { prefix: '/api/auth', auth })
  await app.register(usersRoutes, { prefix: '/api/users', users })
  await app.register(salesUsersRoutes, { prefix: '/api/admin/users', users })
  await app.register(activityRoutes, { prefix: '/api/logs' })
  // ---- issue #3: SCORM Cloud client, mirror sync (routes, scheduler; app.sync) and postbacks ----
  await registerSync(app, { config, database, transport: options.scormCloudTransport ?? {} })
  // Issue #13: the log's month partitions, made ahead (at start, then daily).
  let partitions: { stop(): void } | null = null
  app.addHook('onReady', async () => {
    partitions = scheduleLogPartitions(database.db, app.log)
  })
  app.addHook('onClose', async () => partitions?.stop())

  // Issue #17 (after the sync: it listens for runs; before the webhook: postbacks feed it).
  await registerAlerts(app, { config, database, ...options.alerts })
  await app.register(webhookRoutes, { prefix: '/api/webhooks/scorm-cloud' })
  // ---- end issue #3 ----
  // ---- issue #4: dispatches and reports (after issue #3: the edit uses its app.scormCloud) ----
  const dispatches = createDispatchesService(database.db, { cache: config.readCache })
  const dispatchUpdates = createDispatchUpdateService({
    db: database.db,
    dispatches,
    client: () => app.scormCloud ?? null,
  })
  await app.register(dispatchesRoutes, { prefix: '/api/dispatches', dispatches, updates: dispatchUpdates })
  await app.register(reportsRoutes, {
    prefix: '/api/reports',
    reports: createReportsService(database.db, dispatches, { cache: config.readCache }),
  })
  // ---- end issue #4 ----
  // ---- issue #6: companies (its sync button is issue #3's GET /api/admin/companies/sync) ----
  await app.register(companiesRoutes, {
    prefix: '/api/admin/companies',
    companies: createCompaniesService(database.db),
  })
  await app.register(userActivityRoutes, { prefix: '/api/users' })
  // ---- end issue #6 ----
  // ---- issue #5: courses (GET /api/dispatches/courses is static: it wins over /api/dispatches/:id) ----
  const courses = createCoursesService(database.db)
  const courseEdits = createCourseEditService({ db: database.db, courses })
  await app.register(coursesRoutes, { prefix: '/api', courses, edits: courseEdits })
  await app.register(courseRequestsRoutes, {
    prefix: '/api/course-requests',
    requests: createCourseRequestsService(database.db),
  })
  // ---- end issue #5 ----
  // ---- issue #15: provider first, then the mirror (the client is issue #3's app.scormCloud) ----
  const providerDeps = { db: database.db, dispatches, client: () => app.scormCloud ?? null }
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
  // ---- end issue #15 ----
  // ---- issue #16: report exports and the learner view ----
  await app.register(reportExportRoutes, {
    prefix: '/api/reports',
    exports: createReportExportService(database.db, dispatches, app.log),
  })
  await app.register(learnersRoutes, {
    prefix: '/api/learners',
    learners: createLearnersService(database.db, app.log, { cache: config.readCache }),
  })
  // ---- end issue #16 ----

  await app.register(spaPlugin, { distDir: config.webDistDir ?? DEFAULT_WEB_DIST })
  return app
}
