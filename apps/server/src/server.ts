import closeWithGrace from 'close-with-grace'
import { ownCompanyOnly } from '@portal/shared'
import { appParts, buildApp } from './app'
import { ConfigError, dataFolder, loadConfig } from './config'
import { createDatabase } from './db/client'
import { holdPgliteFolder } from './db/pglite-lock'
import { ensureDemoAccounts, ensureFirstAdmin } from './modules/demo/bootstrap'
import { createDemoRepository } from './modules/demo/demo.repository'
import { createUsersRepository } from './modules/users/users.repository'
import { startDemoSimulator, type DemoSimulator } from './modules/demo/demo-simulator'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './modules/demo/demo-accounts'
import { outboundWebhooksOf } from './modules/outbound-webhooks/outbound-webhooks.parts'
import { SYNC_JOB } from './modules/sync/sync.scheduler'
import { DEMO_SSO, DEMO_STAFF_SSO, seedDemoSso, seedDemoStaffSso, startDemoSso } from './modules/sso/demo-sso'
import { createSsoRepository } from './modules/sso/sso.repository'
import { createClusterRepository } from './modules/cluster/cluster.repository'
import { checkSharedSecrets, SecretMismatchError } from './modules/cluster/shared-secrets'

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
// Embedded PGlite: its folder (and DATA_DIR) is created before PGlite opens it, and held by this
// process alone until it ends (a second server on the same folder stops here).
const pgliteDir = config.databaseUrl ? null : orExit(() => dataFolder(config.dataDir, 'pglite'))
const folderHold = pgliteDir ? orExit(() => holdPgliteFolder(pgliteDir)) : null
process.once('exit', () => folderHold?.release())

// Demo mode: the simulator stands in for SCORM Cloud (modules/demo/demo-simulator.ts).
let simulator: DemoSimulator | null = null
if (config.demoMode) ({ simulator, config } = await startDemoSimulator(config))

const database = await createDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: pgliteDir,
  poolSize: config.databasePoolSize,
})
// A node whose JWT_SECRET (or postback password, SSO key) differs from its peers' stops here, as
// does one started with another SCORM Cloud application (or demo mode) than the database mirrors.
try {
  await checkSharedSecrets(createClusterRepository(database.db), config)
} catch (error) {
  if (!(error instanceof SecretMismatchError)) throw error
  console.error(error.message)
  await database.close()
  await simulator?.close()
  process.exit(1)
}
// Demo mode: a built-in OIDC provider on loopback, so a newcomer can try single sign-on.
const demoSso = config.demoMode ? await startDemoSso(config) : null
const app = await buildApp({ config, database, ssoDemo: demoSso?.info ?? null })

try {
  // Ready first: the job engine starts with the app.
  await app.ready()
  const seeding = { demo: createDemoRepository(database.db), users: createUsersRepository(database.db) }
  await ensureFirstAdmin(seeding, config, app.log)
  // The start-up sync, a job like the scheduled one (modules/sync/sync.scheduler.ts): any node
  // sends it, one node runs it (a second waits at most). The demo syncs once before it reports
  // ready, so the screens have data.
  const { sync, jobs } = appParts(app)
  if (sync) {
    const id = await jobs.send(SYNC_JOB, { trigger: 'startup' })
    if (id && simulator && jobs.status().working) await jobs.waitFor(SYNC_JOB, id)
  }
  if (config.demoMode) {
    const clientCompany = await ensureDemoAccounts(seeding)
    // The demo client's webhook to the built-in catcher: completions of the simulator's live
    // learners show up on its Webhooks screen.
    await outboundWebhooksOf(app).catcher?.seed(clientCompany, DEMO_ACCOUNTS.find((a) => ownCompanyOnly(a.role))!.email)
    if (demoSso) {
      await seedDemoSso(createSsoRepository(database.db), config, demoSso, clientCompany)
      await seedDemoStaffSso(createSsoRepository(database.db), config, demoSso)
    }
  }
} catch (error) {
  console.error((error as Error).message)
  await app.close()
  await database.close()
  await simulator?.close()
  await demoSso?.provider.close()
  process.exit(1)
}

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error')
  else app.log.info({ signal }, 'shutting down')
  await app.close()
  await database.close()
  await simulator?.close()
  await demoSso?.provider.close()
})

await app.listen({ port: config.port, host: config.host })
const url = `http://${config.host}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}`
const lines = [
  '',
  `  Dispatch Portal is running at ${url}`,
  `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)'}`,
  `  Role: ${config.role} (${config.role === 'web' ? 'serves HTTP, runs no jobs' : config.role === 'worker' ? 'runs the background jobs, serves /api/health only' : 'serves HTTP and runs the background jobs'})`,
]
if (config.demoMode) {
  lines.push(`  Demo mode: no SCORM Cloud credentials, so the built-in simulator serves ${simulator?.url ?? ''}`)
  lines.push('  Demo accounts, password ' + DEMO_PASSWORD + ':')
  for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.role.padEnd(9)} ${a.email}`)
  if (demoSso) {
    lines.push(`  Single sign-on demo: the built-in OIDC provider at ${demoSso.provider.issuer} signs in`)
    lines.push(`    ${DEMO_SSO.accounts.map((a) => a.email).join(', ')} (any password on its page)`)
    lines.push(
      `    and, as ${DEMO_STAFF_SSO.name} staff (${DEMO_STAFF_SSO.role}), ${DEMO_STAFF_SSO.accounts.map((a) => a.email).join(', ')}`,
    )
  }
}
console.log(lines.join('\n') + '\n')
