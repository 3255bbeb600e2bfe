import type { FastifyServerOptions } from 'fastify'
import { perApp } from './lib/per-app'
import type { AppConfig } from './config'
import type { Database } from './db/client'
import type { AlertsService } from './modules/alerts/alerts.service'
import type { DEFAULT_THROTTLE } from './modules/auth/login-throttle'
import type { JobEngine } from './modules/jobs/job-engine'
import type { MailPartsOptions } from './modules/mail/mail.parts'
import type { DeliveryOptions } from './modules/outbound-webhooks/deliverer'
import type { TransportOptions } from './modules/scorm-cloud/http-transport'
import type { ScormCloudClient } from './modules/scorm-cloud/scorm-cloud.client'
import type { SsoDemoInfo } from './modules/sso/sso.service'
import type { SyncService } from './modules/sync/sync.service'

/*
 * buildApp's inputs (AppOptions) and what it wires that tests and server.ts reach from outside
 * (AppParts), apart from the composition root in app.ts.
 */

/**
 * The background parts buildApp wires, reachable from outside the app only through appParts:
 * server.ts runs the start-up sync with them, and tests drive them by hand. Routes never read
 * them; each receives what it uses as options.
 */
export interface AppParts {
  /** The one SCORM Cloud client of this process (shared breaker); null without credentials. */
  scormCloud: ScormCloudClient | null
  /** The mirror sync; null without SCORM Cloud credentials. */
  sync: SyncService | null
  /** The alert evaluation of this process. */
  alerts: AlertsService
  /** Queues due digests and reports now (the mail-scheduled job; tests call it). */
  queueScheduledMails(now?: Date): Promise<number>
  /** Queues the monthly usage statement mails of the month before `now` (the statement-mails job). */
  queueStatementMails(now?: Date): Promise<number>
  /** The job engine of this process (tests run due jobs with runDue; server.ts sends the start-up sync). */
  jobs: JobEngine
}

const partsOfApp = perApp<AppParts>('appParts: not an app made by buildApp')

/** What buildApp wired for this app (called once, by buildApp). */
export const rememberParts = partsOfApp.remember

export const appParts = partsOfApp.of

export interface AppOptions {
  config: AppConfig
  database: Database
  logger?: FastifyServerOptions['logger']
  throttle?: typeof DEFAULT_THROTTLE
  /** Tests only: shorter SCORM Cloud timeouts, backoff and breaker period. */
  scormCloudTransport?: Partial<TransportOptions>
  /** Alert and mail tests: their own mail transport, attachment builder, and no background workers. */
  alerts?: MailPartsOptions & {
    /** false: as jobs.background false (tests drive the jobs by hand). */
    timers?: boolean
  }
  /**
   * The job engine's workers and schedules run by themselves (default); tests turn this off and
   * run due jobs with appParts(app).jobs.runDue().
   */
  jobs?: { background?: boolean }
  /** Calls one API key may make per window (default 600 a minute); tests lower it. */
  apiKeyRateLimit?: { max: number; timeWindowMs: number }
  /** Tests: outgoing webhooks' retry schedule, timeout, pause rules and private targets. */
  webhooks?: DeliveryOptions
  /** Demo mode's built-in OIDC provider, listed on the sign-in screen (server.ts starts it). */
  ssoDemo?: SsoDemoInfo | null
}
