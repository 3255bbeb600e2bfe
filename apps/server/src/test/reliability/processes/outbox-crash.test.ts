import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { createDatabase } from '../../../db/client'
import { runOutboxCrash, TIMEOUT_MS } from './outbox-crash'

/**
 * The outbox under SIGKILL, on embedded PGlite (the scenario is in outbox-crash.ts): the server
 * is killed while one mail's handover is in doubt and the rest of its batch was never tried;
 * after the restart and the lease's end every mail not handed over is delivered exactly once,
 * and only the one in doubt is `uncertain`.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-outbox-crash-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('outbox: server killed while sending (PGlite)', () => {
  it(
    'sends every mail that was not handed over exactly once after the restart; only the one in doubt is uncertain',
    async () => {
      await runOutboxCrash({
        env: { DATA_DIR: dataDir },
        // PGlite is embedded: the test opens the server's folder only while no server runs.
        async use(work) {
          const database = await createDatabase({ dataDir: path.join(dataDir, 'pglite') })
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
