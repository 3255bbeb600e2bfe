import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { createTokenSigner } from './lib/tokens'
import { authPlugin } from './plugins/app/auth'
import { createSessionCheck } from './db/session-user'
import { backpressurePlugin } from './plugins/app/backpressure'
import { errorHandlerPlugin } from './plugins/app/error-handler'
import { inputGuardPlugin } from './plugins/app/input-guard'
import { logRequests } from './plugins/app/request-log'
import { DEFAULT_WEB_DIST, serverOptions } from './server-options'
import { securityPlugin } from './plugins/external/security'
import { docsPlugin } from './plugins/external/docs'
import { spaPlugin } from './plugins/external/spa'
import { createClusterRepository } from './modules/cluster/cluster.repository'
import { databaseRateLimitStore } from './modules/cluster/rate-limit-store'
import healthRoutes, { serveHealthOnly } from './modules/health/health.routes'
import authRoutes from './modules/auth/auth.routes'
import { createAuthService } from './modules/auth/auth.service'
import { createAuthRepository } from './modules/auth/auth.repository'
import { createLoginThrottle } from './modules/auth/login-throttle'
import { salesUsersRoutes, usersRoutes } from './modules/users/users.routes'
import { createUsersService } from './modules/users/users.service'
import activityRoutes from './modules/activity-logs/activity.routes'
import { createLogsService } from './modules/activity-logs/logs.service'
import { createLogsRepository } from './modules/activity-logs/logs.repository'
import { createSyncParts } from './modules/sync/sync.parts'
import syncRoutes from './modules/sync/sync.routes'
import webhookRoutes from './modules/webhooks/webhooks.routes'
import { createWebhooksService } from './modules/webhooks/webhooks.service'
import { createAlertsService } from './modules/alerts/alerts.service'
import { createOutboxRepository } from './modules/mail/outbox.repository'
import { createScheduledMailsRepository } from './modules/mail/scheduled-mails.repository'
import { createAlertsRepository } from './modules/alerts/alerts.repository'
import { createMailOutbox, createMailParts } from './modules/mail/mail.parts'
import { defineBackgroundWork, jobEngineFor } from './background'
import preferencesRoutes from './modules/profile/preferences.routes'
import { createPreferencesService } from './modules/profile/preferences.service'
import { createPreferencesRepository } from './modules/profile/preferences.repository'
import dispatchesRoutes from './modules/dispatches/dispatches.routes'
import { createDispatchesService } from './modules/dispatches/dispatches.service'
import { createDispatchesRepository } from './modules/dispatches/dispatches.repository'
import { createDispatchPairRepository } from './modules/dispatches/dispatch-pair.repository'
import type { DispatchMirror } from './modules/dispatches/dispatch-mirror.service'
import { createSyncRepository } from './modules/sync/sync.repository'
import { createSyncRunRepository } from './modules/sync/sync-run.repository'
import { createSyncProgressRepository } from './modules/sync/sync-progress.repository'
import { createRequestFulfilRepository } from './modules/course-requests/request-fulfil.repository'
import { createDispatchUpdateService } from './modules/dispatches/dispatch-update.service'
import chartsRoutes from './modules/reports/charts.routes'
import { createChartsService } from './modules/reports/charts.service'
import { createChartsRepository } from './modules/reports/charts.repository'
import { createReportsRepository } from './modules/reports/reports.repository'
import reportExportRoutes from './modules/reports/report-export.routes'
import { createReportExportService } from './modules/reports/report-export'
import learnersRoutes from './modules/learners/learners.routes'
import { createLearnersService } from './modules/learners/learners.service'
import { createLearnersRepository } from './modules/learners/learners.repository'
import dispatchActionsRoutes from './modules/dispatches/dispatch-actions.routes'
import statementsRoutes from './modules/statements/statements.routes'
import { createStatementParts } from './modules/statements/statements.parts'
import dispatchPackagesRoutes from './modules/dispatches/dispatch-packages.routes'
import deliveryRoutes from './modules/delivery/delivery.routes'
import { createDelivery } from './modules/delivery/delivery.service'
import { createDispatchCreateService } from './modules/dispatches/dispatch-create.service'
import { createDispatchCountService } from './modules/dispatches/dispatch-count.service'
import { createDispatchPackagesService } from './modules/dispatches/dispatch-packages.service'
import reportsRoutes from './modules/reports/reports.routes'
import { createReportsService } from './modules/reports/reports.service'
import companiesRoutes from './modules/companies/companies.routes'
import { createCompaniesService } from './modules/companies/companies.service'
import { createCompaniesRepository } from './modules/companies/companies.repository'
import coursesRoutes from './modules/courses/courses.routes'
import { createCoursesService } from './modules/courses/courses.service'
import { createCoursesRepository } from './modules/courses/courses.repository'
import { createCourseEditService } from './modules/courses/course-edit.service'
import courseRequestsRoutes from './modules/course-requests/course-requests.routes'
import { createCourseRequestsService } from './modules/course-requests/course-requests.service'
import { createCourseRequestsRepository } from './modules/course-requests/course-requests.repository'
import requestFulfilRoutes from './modules/course-requests/request-fulfil.routes'
import { createRequestFulfilService } from './modules/course-requests/request-fulfil.service'
import { createUsersRepository } from './modules/users/users.repository'
import { createActivityRepository } from './modules/activity-logs/activity.repository'
import { createSsoRepository } from './modules/sso/sso.repository'
import { createSsoPasswordRule, createSsoService } from './modules/sso/sso.service'
import { ssoAdminRoutes, ssoAuthRoutes } from './modules/sso/sso.routes'
import { ssoStaffAdminRoutes } from './modules/sso/sso-staff.routes'
import { generatedSsoKey } from './config'
import { createSecretBox, type SecretBox } from './lib/secret-box'
import { createMfaRepository } from './modules/mfa/mfa.repository'
import { createMfaService, createSecondStepGate } from './modules/mfa/mfa.service'
import { createSecurityNotices } from './modules/mfa/mfa.notices'
import { createApiKeysRepository } from './modules/api-keys/api-keys.repository'
import { createApiKeysService } from './modules/api-keys/api-keys.service'
import { apiKeysRoutes, companyApiKeysRoutes } from './modules/api-keys/api-keys.routes'
import { secondFactorRoutes } from './modules/mfa/second-factor.routes'
import { webauthnRelyingParty } from './modules/mfa/passkeys.service'
import { registerOutboundWebhooks } from './modules/outbound-webhooks/outbound-webhooks.parts'
import { registerRenewals } from './modules/dispatches/renewals.parts'
import { registerAdminRoutes } from './app-admin-routes'

declare module 'fastify' {
  interface FastifyInstance {
    closing: boolean
  }
}

export { appParts, type AppOptions, type AppParts } from './app-parts'
import { rememberParts, type AppOptions } from './app-parts'

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options
  const app = Fastify(serverOptions(config, options.logger)).withTypeProvider<TypeBoxTypeProvider>()
  app.decorate('closing', false)
  app.addHook('preClose', async () => {
    app.closing = true
  })
  // A request still in flight at shutdown is answered, then its keep-alive connection
  // is closed; otherwise the idle socket would hold the server's close open (keepAliveTimeout 72 s).
  app.addHook('onSend', async (_request, reply) => {
    if (app.closing) void reply.header('connection', 'close')
  })
  logRequests(app)

  const signer = createTokenSigner(config.jwtSecret)
  // Built before the auth plugin: the bearer path of every call checks API keys with it.
  const apiKeys = createApiKeysService({
    db: database.db,
    keys: createApiKeysRepository(database.db),
    activity: createActivityRepository(database.db),
  })
  await app.register(errorHandlerPlugin)
  // A worker node serves its health only: everything else is another node's.
  if (config.role === 'worker') serveHealthOnly(app)

  await app.register(backpressurePlugin, { waiting: database.waiting, queueLimit: config.databaseQueueLimit })
  await app.register(securityPlugin, {
    config,
    rateLimitStore: databaseRateLimitStore(createClusterRepository(database.db)),
  })
  await app.register(inputGuardPlugin)
  await app.register(authPlugin, {
    signer,
    sessionCheck: await createSessionCheck(database),
    apiKeys,
    apiKeyRateLimit: options.apiKeyRateLimit ?? { max: 600, timeWindowMs: 60_000 },
  })
  await app.register(docsPlugin)

  // The composition root: every service is built here and handed to its module's routes.
  const db = database.db
  const activity = createActivityRepository(db)
  const usersRepository = createUsersRepository(db)
  const authRepository = createAuthRepository(db)
  const throttle = createLoginThrottle(authRepository, options.throttle)
  const ssoRepository = createSsoRepository(db)
  const mfaRepository = createMfaRepository(db)
  const gate = createSecondStepGate(mfaRepository, {
    demoMode: config.demoMode,
    defaultRoles: config.mfaDefaultRoles,
  })
  // Every background task is a job of this engine (background.ts); web nodes run none.
  const jobs = jobEngineFor(app, config, database, options.jobs?.background ?? options.alerts?.timers !== false)
  const outboxRepository = createOutboxRepository(db)
  // Mail is queued with the job that sends it, in the caller's transaction.
  const mails = createMailOutbox(outboxRepository, jobs)
  const notices = createSecurityNotices({
    repository: mfaRepository,
    outbox: mails,
    publicUrl: config.publicUrl,
  })
  const auth = createAuthService({
    db,
    repositories: { auth: authRepository, users: usersRepository },
    activity,
    signer,
    throttle,
    sessionMaxHours: config.sessionMaxHours,
    passwordRule: createSsoPasswordRule(ssoRepository),
    secondStep: gate.secondStep,
    onSessionIssued: notices.onSessionIssued,
  })
  const logsRepository = createLogsRepository(db)
  const logs = createLogsService({ logs: logsRepository, activity, log: app.log }, { cache: config.readCache })
  const users = createUsersService({ db, users: usersRepository, activity, logs })
  const sso = createSsoService({
    db,
    repositories: { sso: ssoRepository, users: usersRepository },
    auth,
    activity,
    config,
    log: app.log,
    demo: options.ssoDemo ?? null,
  })

  // Authenticator-app keys are sealed with the same deployment key as single sign-on secrets
  // (SSO_SECRET_KEY, or the key file made in DATA_DIR when first needed).
  let box: SecretBox | null = null
  const mfa = createMfaService({
    db,
    repository: mfaRepository,
    gate,
    auth,
    users: usersRepository,
    throttle,
    activity,
    notices,
    box: () => (box ??= createSecretBox(config.ssoSecretKey ?? generatedSsoKey(config.dataDir))),
    // A single sign-on session that needed a second step keeps its link to the connection.
    resume: (details) =>
      typeof details.ssoConnectionId === 'string'
        ? (sessionId, tx) => ssoRepository.insertSession(sessionId, details.ssoConnectionId as string, tx)
        : undefined,
    webauthn: { ...webauthnRelyingParty(config.publicUrl), rpName: 'Dispatch Portal' },
    signInRule: createSsoPasswordRule(ssoRepository),
  })

  await app.register(healthRoutes, { prefix: '/api', database, role: config.role, jobs: () => jobs.status() })
  const { demoMode, supportEmail } = config
  await app.register(authRoutes, { prefix: '/api/auth', auth, users, demoMode, supportEmail })
  // The single sign-on flow's cookies are Secure when the portal is served over https.
  const secureCookie = config.publicUrl.startsWith('https:')
  await app.register(ssoAuthRoutes, { prefix: '/api/auth/sso', sso, secureCookie })
  await app.register(ssoAdminRoutes, { prefix: '/api/admin/companies', sso, secureCookie })
  await app.register(secondFactorRoutes, { mfa })
  await app.register(ssoStaffAdminRoutes, { prefix: '/api/admin/sso/staff', sso, secureCookie })
  await app.register(apiKeysRoutes, { prefix: '/api/api-keys', apiKeys })
  await app.register(companyApiKeysRoutes, { prefix: '/api/admin/companies', apiKeys })
  await registerOutboundWebhooks(
    app,
    config,
    { db, jobs, mails, activity, allowed: apiKeys.integrationsAllowed },
    options,
  )
  await app.register(usersRoutes, { prefix: '/api/users', users })
  await app.register(salesUsersRoutes, { prefix: '/api/admin/users', users })
  await app.register(activityRoutes, { prefix: '/api/logs', logs })

  // The SCORM Cloud client and the mirror sync; without credentials both are null and the sync
  // routes answer 503. Alerts are evaluated by jobs sent after every sync run and with every
  // postback; due mails go through the outbox job.
  const syncRepository = createSyncRepository(db)
  const { client, sync, admin } = createSyncParts(
    config,
    database,
    {
      mirror: syncRepository,
      runs: createSyncRunRepository(db),
      progress: createSyncProgressRepository(db),
      activity,
    },
    options.scormCloudTransport ?? {},
    app.log,
  )
  const mail = createMailParts(
    config,
    { db, outbox: outboxRepository, mails, scheduled: createScheduledMailsRepository(db) },
    app.log,
    options.alerts,
  )
  const alertsRepository = createAlertsRepository(db)
  const alerts = createAlertsService({
    db,
    repository: alertsRepository,
    outbox: mails,
    jobs,
    publicUrl: config.publicUrl,
    log: app.log,
  })
  const statements = createStatementParts({ db, mails, publicUrl: config.publicUrl })
  rememberParts(app, {
    scormCloud: client,
    sync,
    alerts,
    queueScheduledMails: mail.queueScheduledMails,
    jobs,
    queueStatementMails: statements.queueMails,
  })
  defineBackgroundWork(app, config, {
    jobs,
    database,
    sync,
    client,
    alerts,
    alertsRepository,
    mail,
    logs: logsRepository,
    statementMails: statements.mail,
  })

  await app.register(syncRoutes, { prefix: '/api', admin })
  await registerAdminRoutes(app, {
    db,
    activity,
    alerts,
    outbox: outboxRepository,
    jobs,
    smtpConfigured: config.smtpUrl !== null,
  })
  await app.register(preferencesRoutes, {
    prefix: '/api/profile',
    preferences: createPreferencesService(createPreferencesRepository(db)),
  })
  // A stored postback sends its dispatch's alert evaluation in its own transaction.
  const webhooks = createWebhooksService({ db, mirror: syncRepository, alerts })
  await app.register(webhookRoutes, {
    prefix: '/api/webhooks/scorm-cloud',
    webhooks,
    credentials: { user: config.postbackUser, password: config.postbackPassword },
  })

  // Edits go to SCORM Cloud first, then the mirror (the client is null without credentials).
  const dispatchesRepository = createDispatchesRepository(db, { reusePlans: database.kind === 'postgres' })
  const dispatches = createDispatchesService(db, dispatchesRepository, { cache: config.readCache })
  const pairs = createDispatchPairRepository(db)
  // A dispatch read back from SCORM Cloud after an edit is written with the sync's own upsert.
  const mirror: DispatchMirror = syncRepository
  const providerDeps = { db, dispatches, activity, client: () => client }
  await app.register(dispatchesRoutes, {
    prefix: '/api/dispatches',
    dispatches,
    updates: createDispatchUpdateService({ ...providerDeps, repository: dispatchesRepository }),
  })
  const reportsRepository = createReportsRepository(db)
  await app.register(reportsRoutes, {
    prefix: '/api/reports',
    reports: createReportsService({ db, reports: reportsRepository, dispatches }, { cache: config.readCache }),
  })
  await app.register(chartsRoutes, {
    prefix: '/api/reports/charts',
    charts: createChartsService({ db, charts: createChartsRepository(db), dispatches }, { cache: config.readCache }),
  })
  await app.register(companiesRoutes, {
    prefix: '/api/admin/companies',
    companies: createCompaniesService({ db, companies: createCompaniesRepository(db), activity }),
  })
  // GET /api/dispatches/courses is static: it wins over /api/dispatches/:id.
  const coursesRepository = createCoursesRepository(db)
  const courseRequestsRepository = createCourseRequestsRepository(db)
  const courses = createCoursesService({ courses: coursesRepository, activity })
  await app.register(coursesRoutes, {
    prefix: '/api',
    courses,
    edits: createCourseEditService({ db, repository: coursesRepository, activity, courses }),
  })
  await app.register(courseRequestsRoutes, {
    prefix: '/api/course-requests',
    requests: createCourseRequestsService({
      db,
      requests: courseRequestsRepository,
      courses: coursesRepository,
      activity,
    }),
  })
  await app.register(dispatchActionsRoutes, {
    prefix: '/api/dispatches',
    creates: createDispatchCreateService({ ...providerDeps, pairs, mirror }),
    counts: createDispatchCountService({ ...providerDeps, repository: dispatchesRepository }),
  })
  await registerRenewals(app, {
    providerDeps,
    repository: dispatchesRepository,
    jobs,
    mails,
    publicUrl: config.publicUrl,
  })
  await app.register(statementsRoutes, { prefix: '/api/statements', statements: statements.statements })
  const delivery = createDelivery(providerDeps)
  await app.register(dispatchPackagesRoutes, {
    prefix: '/api/dispatches',
    packages: createDispatchPackagesService({ ...providerDeps, pairs, delivery: delivery.repository }),
  })
  await app.register(deliveryRoutes, { prefix: '/api', delivery: delivery.service, lti: delivery.lti })
  await app.register(requestFulfilRoutes, {
    prefix: '/api/course-requests',
    fulfilments: createRequestFulfilService({
      ...providerDeps,
      requests: courseRequestsRepository,
      fulfilments: createRequestFulfilRepository(db),
      pairs,
      mirror,
    }),
  })
  await app.register(reportExportRoutes, {
    prefix: '/api/reports',
    exports: createReportExportService({ reports: reportsRepository, dispatches, activity, log: app.log }),
  })
  await app.register(learnersRoutes, {
    prefix: '/api/learners',
    learners: createLearnersService(
      { db, learners: createLearnersRepository(db), activity, log: app.log },
      { cache: config.readCache },
    ),
  })

  await app.register(spaPlugin, { distDir: config.webDistDir ?? DEFAULT_WEB_DIST })
  return app
}
