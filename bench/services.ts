/**
 * The services the in-process bench phases drive, built from one database handle the way the
 * server's composition root (apps/server/src/app.ts) builds them.
 */
import type { Db } from '../apps/server/src/db/client'
import { createActivityRepository } from '../apps/server/src/modules/activity-logs/activity.repository'
import { createLogsRepository } from '../apps/server/src/modules/activity-logs/logs.repository'
import { createLogsService } from '../apps/server/src/modules/activity-logs/logs.service'
import { createDispatchesRepository } from '../apps/server/src/modules/dispatches/dispatches.repository'
import { createDispatchesService } from '../apps/server/src/modules/dispatches/dispatches.service'
import { createLearnersRepository } from '../apps/server/src/modules/learners/learners.repository'
import { createLearnersService } from '../apps/server/src/modules/learners/learners.service'
import { createReportsRepository } from '../apps/server/src/modules/reports/reports.repository'
import { createReportsService } from '../apps/server/src/modules/reports/reports.service'
import type { ReadCacheOptions } from '../apps/server/src/lib/versioned-cache'

type Log = { error(obj: unknown, msg: string): void }

export function logsServiceOf(db: Db, log: Log) {
  return createLogsService({ logs: createLogsRepository(db), activity: createActivityRepository(db), log })
}

export function dispatchesServiceOf(db: Db, options: ReadCacheOptions = {}) {
  const repository = createDispatchesRepository(db, { reusePlans: options.reusePlans === true })
  return createDispatchesService(db, repository, { cache: options.cache })
}

export function reportsServiceOf(
  db: Db,
  dispatches: ReturnType<typeof dispatchesServiceOf>,
  options: ReadCacheOptions = {},
) {
  return createReportsService({ db, reports: createReportsRepository(db), dispatches }, options)
}

export function learnersServiceOf(db: Db, log: Log, options: ReadCacheOptions = {}) {
  const deps = { db, learners: createLearnersRepository(db), activity: createActivityRepository(db), log }
  return createLearnersService(deps, options)
}
