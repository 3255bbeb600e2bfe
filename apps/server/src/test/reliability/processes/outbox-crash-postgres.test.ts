import { afterAll, beforeAll, describe, it } from 'vitest'
import { createDatabase } from '../../../db/client'
import { createPgDatabase, type PgDatabase } from './server-process'
import { runOutboxCrash, TIMEOUT_MS } from './outbox-crash'

/**
 * The outbox under SIGKILL on a dedicated PostgreSQL database (the scenario is in
 * outbox-crash.ts, the same as on PGlite): every mail not handed over is delivered exactly once
 * after the restart and the lease's end; only the one in doubt is `uncertain`.
 */
let pgDb: PgDatabase
beforeAll(async () => {
  pgDb = await createPgDatabase('portal_outbox_crash')
})
afterAll(async () => {
  await pgDb?.drop()
})

describe('outbox: server killed while sending (PostgreSQL)', () => {
  it(
    'sends every mail that was not handed over exactly once after the restart; only the one in doubt is uncertain',
    async () => {
      await runOutboxCrash({
        env: { DATABASE_URL: pgDb.url },
        async use(work) {
          const database = await createDatabase({ databaseUrl: pgDb.url, poolSize: 2 })
          try {
            return await work(database.db)
          } finally {
            await database.close()
          }
        },
      })
    },
    TIMEOUT_MS,
  )
})
