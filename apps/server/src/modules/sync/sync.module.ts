import type { FastifyInstance } from 'fastify'
import type { AppConfig } from '../../config'
import type { Database } from '../../db/client'
import type { TransportOptions } from '../scorm-cloud/http-transport'
import { createScormCloudClient, type ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { createSyncAdminService } from './sync-admin.service'
import syncRoutes from './sync.routes'
import { startSyncScheduler, type SyncScheduler } from './sync.scheduler'
import { createSyncService, type SyncService } from './sync.service'

declare module 'fastify' {
  interface FastifyInstance {
    /** The one SCORM Cloud client of this process (shared breaker); null without credentials. */
    scormCloud: ScormCloudClient | null
    /** The mirror sync; null without SCORM Cloud credentials. */
    sync: SyncService | null
  }
}

/**
 * Wires issue #3 into the app: the SCORM Cloud client, the sync service and its routes under
 * /api, and the scheduler (started when the app is ready, stopped on close with the run in
 * flight). Without credentials the routes still answer, with 503.
 */
export async function registerSync(
  app: FastifyInstance,
  {
    config,
    database,
    transport = {},
  }: {
    config: AppConfig
    database: Database
    /** Test-only overrides of the client's timeouts, backoff and breaker (issue #8 reliability suite). */
    transport?: Partial<TransportOptions>
  },
) {
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
  const sync = client ? createSyncService({ database, client, log: app.log, pageRetry }) : null
  app.decorate('scormCloud', client)
  app.decorate('sync', sync)
  await app.register(syncRoutes, { prefix: '/api', admin: sync ? createSyncAdminService(database.db, sync) : null })

  let scheduler: SyncScheduler | null = null
  app.addHook('onReady', async () => {
    if (sync) scheduler = startSyncScheduler(sync, config.syncIntervalMinutes, app.log)
  })
  app.addHook('onClose', async () => {
    scheduler?.stop()
    await sync?.close()
    await client?.close()
  })
}
