import type { FastifyBaseLogger } from 'fastify'
import type { AppConfig } from '../../config'
import type { Database } from '../../db/client'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { TransportOptions } from '../scorm-cloud/http-transport'
import { createScormCloudClient, type ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { createSyncAdminService, type SyncAdminService } from './sync-admin.service'
import { createSyncService, type SyncRepositories, type SyncService } from './sync.service'

/** objects, built by the composition root (app.ts), which also starts and stops them. */
export interface SyncParts {
  /** The one SCORM Cloud client of this process (shared breaker); null without credentials. */
  client: ScormCloudClient | null
  /** The mirror sync; null without SCORM Cloud credentials. */
  sync: SyncService | null
  /** The sync routes' service; null without credentials (the routes then answer 503). */
  admin: SyncAdminService | null
}

/**
 * The SCORM Cloud client, the sync service and the sync routes' service. Plain objects: nothing
 * is started here (app.ts starts the scheduler when the app is ready and closes them on close).
 */
export function createSyncParts(
  config: AppConfig,
  database: Database,
  repositories: SyncRepositories & { activity: ActivityRepository },
  /** Test-only overrides of the client's timeouts, backoff and breaker (reliability suite). */
  transport: Partial<TransportOptions>,
  log: FastifyBaseLogger,
): SyncParts {
  const client = config.scormCloud
    ? createScormCloudClient({
        ...config.scormCloud,
        connectTimeoutMs: 5_000,
        requestTimeoutMs: 15_000,
        maxAttempts: 3,
        ...transport,
      })
    : null
  // Tests that shorten the client's backoff shorten the wait between a page's retries too.
  const pageRetry = transport.backoffCapMs === undefined ? {} : { delayMs: transport.backoffCapMs }
  const sync = client ? createSyncService({ database, repositories, client, log, pageRetry }) : null
  return { client, sync, admin: sync ? createSyncAdminService(repositories.activity, sync) : null }
}
