import closeWithGrace from 'close-with-grace'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { buildApp } from './app'
import { ConfigError, dataFolder, loadConfig } from './config'
import { createDatabase } from './db/client'
import { ensureDemoAccounts, ensureFirstAdmin } from './modules/demo/bootstrap'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './modules/demo/demo-accounts'

/** A configuration mistake ends start-up with its message and exit code 1, not a stack trace. */
function orExit<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

let config = orExit(() => loadConfig())
// Embedded PGlite: its folder (and DATA_DIR) is created before PGlite opens it (issue #14).
const pgliteDir = config.databaseUrl ? null : orExit(() => dataFolder(config.dataDir, 'pglite'))

// Demo mode (no SCORM Cloud credentials): the built-in simulator on loopback stands in for the
// provider, in live mode with postbacks to our webhook, and the real client talks to it.
let simulator: Simulator | null = null
if (config.demoMode) {
  simulator = await startSimulator({
    seed: 42,
    port: 0,
    host: '127.0.0.1',
    live:
      config.port === 0
        ? { intervalMs: 20_000 }
        : {
            intervalMs: 20_000,
            postbackUrl: `http://127.0.0.1:${config.port}/api/webhooks/scorm-cloud/registrations`,
            postbackUser: config.postbackUser,
            postbackPassword: config.postbackPassword,
          },
  })
  config = { ...config, scormCloud: { appId: simulator.appId, secretKey: simulator.secretKey, baseUrl: simulator.url } }
}

const database = await createDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: pgliteDir,
  poolSize: config.databasePoolSize,
})
const app = await buildApp({ config, database })

try {
  await ensureFirstAdmin(app.db, config, app.log)
  if (simulator && app.sync) {
    // Issue #3: the demo syncs once before it reports ready, so the screens have data.
    const outcome = await app.sync.run({ trigger: 'startup' })
    if (!outcome.ok) app.log.warn({ results: outcome.results }, 'start-up sync did not complete')
  } else if (app.sync) {
    void app.sync.run({ trigger: 'startup' }).catch((err: unknown) => app.log.warn({ err }, 'start-up sync failed'))
  }
  if (config.demoMode) await ensureDemoAccounts(app.db)
} catch (error) {
  console.error((error as Error).message)
  await app.close()
  await database.close()
  await simulator?.close()
  process.exit(1)
}

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error')
  else app.log.info({ signal }, 'shutting down')
  await app.close()
  await database.close()
  await simulator?.close()
})

await app.listen({ port: config.port, host: config.host })
const url = `http://${config.host}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}`
const lines = [
  '',
  `  Dispatch Portal is running at ${url}`,
  `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)'}`,
]
if (config.demoMode) {
  lines.push(`  Demo mode: no SCORM Cloud credentials, so the built-in simulator serves ${simulator?.url ?? ''}`)
  lines.push('  Demo accounts, password ' + DEMO_PASSWORD + ':')
  for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.role.padEnd(9)} ${a.email}`)
}
console.log(lines.join('\n') + '\n')
