/**
 * The bench's PGlite data, as `npm start` makes it: demo mode in DATA_DIR (its start-up sync of
 * the demo data), then BENCH_PGLITE_LOG_ROWS activity log rows in SQL, since the demo's log
 * starts empty. Used by the bench's PGlite part and by `bench/serial.ts MIX --pglite`.
 */
import path from 'node:path'
import { newPglite } from '../apps/server/src/db/client'
import { settings } from './config'
import { startServer } from './run-server'
import { seedActivityLogs } from './seed-logs'
import { pgliteRunner } from './sql-runner'
import { loadVariedData, type VariedData } from './varied-phase'

export interface PgliteBenchData {
  /** The dispatch with the most registrations, and how many. */
  big: { id: string; n: number }
  sizes: { dispatches: number; registrations: number; logs: number }
  data: VariedData
}

/** Builds the data in `dataDir` (unless `build` is false: a folder built before) and reads what the mixes need. */
export async function pgliteBenchData(
  dataDir: string,
  progress: (line: string) => void,
  build = true,
): Promise<PgliteBenchData> {
  if (build) {
    progress('PGlite: demo mode in a fresh DATA_DIR (start-up sync of the demo data)...')
    const first = await startServer({ dataDir }, null, { READ_CACHE: 'false' })
    await first.stop()
  }
  // Only one process may open the folder: the vocabulary is read while no server runs.
  const db = newPglite(path.join(dataDir, 'pglite'))
  try {
    const runner = pgliteRunner(db)
    if (build && settings.pgliteLogRows > 0) {
      progress(`PGlite: activity_log, ${settings.pgliteLogRows.toLocaleString('en-US')} rows with generate_series...`)
      await seedActivityLogs(runner, settings.pgliteLogRows, progress)
    }
    const big = (
      await runner.query<{ id: string; n: number }>(
        `select dispatch_id as id, registrations as n from dispatch_stat order by registrations desc, dispatch_id limit 1`,
      )
    ).rows[0]!
    const sizes = (
      await runner.query<{ dispatches: number; registrations: number; logs: number }>(
        `select (select count(*)::int from dispatch) as dispatches, (select count(*)::int from registration) as registrations,
                (select count(*)::int from activity_log) as logs`,
      )
    ).rows[0]!
    const data = await loadVariedData(runner, big.id, false)
    return { big, sizes, data }
  } finally {
    await db.close()
  }
}
