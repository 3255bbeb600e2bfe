/**
 * Child process of the bench: the server's own composition (loadConfig, createDatabase with its
 * migrations, buildApp) without the listening socket, running one sync through the real sync
 * service, so the parent can sample this process's RSS as the server's. Prints one line
 * `BENCH_RESULT <json>` and exits.
 *
 *   node bench/dist/sync-worker/sync-worker.js full|incremental   (bundled by seed-sync.ts; configured by the server's env)
 */
import { appParts, buildApp } from '../apps/server/src/app'
import { loadConfig } from '../apps/server/src/config'
import { createDatabase } from '../apps/server/src/db/client'

const mode = process.argv[2]
if (mode !== 'full' && mode !== 'incremental') throw new Error('usage: sync-worker.ts full|incremental')

const config = loadConfig()
const database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: `${config.dataDir}/pglite` })
const app = await buildApp({ config, database, logger: { level: 'warn' } })
await app.ready()
const { sync } = appParts(app)
if (!sync) throw new Error('no sync service: set SCORM_CLOUD_APP_ID and SCORM_CLOUD_SECRET_KEY')

const cpuBefore = process.cpuUsage()
const started = performance.now()
const outcome = await sync.run({ trigger: mode === 'full' ? 'manual' : 'schedule', full: mode === 'full' })
const durationMs = performance.now() - started
// CPU time of this process: the rest of the wall time is waiting on PostgreSQL and the provider.
const cpu = process.cpuUsage(cpuBefore)
const cpuMs = (cpu.user + cpu.system) / 1000
const results = outcome.results.map(({ error: _error, ...rest }) => rest)
console.log(`BENCH_RESULT ${JSON.stringify({ ok: outcome.ok, durationMs, cpuMs, results })}`)

await app.close()
await database.close()
