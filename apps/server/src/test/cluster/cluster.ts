import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startSimulator } from '@portal/scorm-cloud-sim'
import { createPgDatabase } from '../reliability/processes/server-process'
import { createNode, eventually, startBalancer, startRefused, startSmtpReceiver, type Role } from './cluster-infra'
import { call, createRecord, runLoad, signIn } from './cluster-load'
import { checkCluster } from './cluster-checks'

/**
 * The cluster test (`npm run test:cluster`, scripts/test-cluster.mjs): three nodes of the built
 * server on one PostgreSQL database of their own, behind HAProxy with deploy/haproxy/haproxy.cfg,
 * under a mixed load for CLUSTER_LOAD_SECONDS (60); midway one node is killed with SIGKILL and
 * started again. Then the checks of cluster-checks.ts, with their counts printed.
 *   CLUSTER_ROLES  the nodes' PORTAL_ROLE, comma-separated (default all,all,all)
 *   CLUSTER_KILL   which node is killed, from 1 (default 2), 40 % into the load
 *   CLUSTER_SECRET_CHECK  0 skips starting a fourth node with another JWT_SECRET (refused)
 *   CLUSTER_PORT   first of the ten ports used (default 3350)
 */
const roles = (process.env.CLUSTER_ROLES ?? 'all,all,all').split(',').map((r) => r.trim() as Role)
const loadMs = Number(process.env.CLUSTER_LOAD_SECONDS ?? 60) * 1000
const killIndex = Number(process.env.CLUSTER_KILL ?? 2) - 1
const basePort = Number(process.env.CLUSTER_PORT ?? 3350)
const ports = { balancer: basePort, stats: basePort + 6, smtp: basePort + 4, sim: basePort + 5, refused: basePort + 7 }
const ADMIN = { email: 'cluster-admin@example.test', password: 'cluster-admin-passphrase-7' }
const CLIENT = { email: 'cluster-client@example.test', password: 'cluster-client-passphrase-7' }
const POSTBACK = { user: 'scorm-cloud', password: 'cluster-postback-secret' }

if (roles.length !== 3 || roles.some((r) => !['all', 'web', 'worker'].includes(r))) {
  throw new Error(`CLUSTER_ROLES must name three roles of all, web, worker: ${roles.join(',')}`)
}
const log = (line: string) => console.log(`[cluster ${roles.join(',')}] ${line}`)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const sim = await startSimulator({
  sizes: { courses: 12, destinations: 4, dispatches: 16, registrations: 120, bigDispatchRegistrations: 0 },
  pageSize: 7,
  port: ports.sim,
})
const smtp = await startSmtpReceiver(ports.smtp)
const pgdb = await createPgDatabase('portal_cluster')
const dataDirs: string[] = []
const env = (): Record<string, string> => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-cluster-'))
  dataDirs.push(dataDir)
  return {
    DATABASE_URL: pgdb.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    MFA_DEFAULT_ROLES: 'none',
    JWT_SECRET: 'cluster-jwt-secret-shared-by-every-node-0123456789',
    SSO_SECRET_KEY: 'cluster-sso-key-shared-by-every-node-0123456789',
    POSTBACK_USER: POSTBACK.user,
    POSTBACK_PASSWORD: POSTBACK.password,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SYNC_INTERVAL_MINUTES: '0',
    WEB_DIST_DIR: '/nonexistent',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Dispatch Portal <portal@example.test>',
    PUBLIC_URL: 'http://portal.example.test',
    SCORM_CLOUD_APP_ID: sim.appId,
    SCORM_CLOUD_SECRET_KEY: sim.secretKey,
    SCORM_CLOUD_BASE_URL: sim.url,
  }
}
const nodes = roles.map((role, i) => createNode(`node${i + 1}`, role, basePort + 1 + i, env()))
const db = new pg.Client({ connectionString: pgdb.url })
let balancer: Awaited<ReturnType<typeof startBalancer>> | null = null
let failed = false

try {
  const started = Date.now()
  await Promise.all(nodes.map((node) => node.start()))
  log(`3 nodes up in ${Date.now() - started} ms: ${nodes.map((n) => `${n.name}=${n.role} :${n.port}`).join(', ')}`)

  // A node with another JWT_SECRET than its peers refuses to start, and says why (once per test run).
  if (process.env.CLUSTER_SECRET_CHECK !== '0') await refusedWithAnotherSecret()
  async function refusedWithAnotherSecret() {
    const refused = await startRefused({
      ...env(),
      PORT: String(ports.refused),
      JWT_SECRET: randomBytes(32).toString('hex'),
    })
    if (refused.code !== 1 || !/JWT_SECRET differs/.test(refused.output)) {
      throw new Error(`a node with another JWT_SECRET was not refused (exit ${refused.code}):\n${refused.output}`)
    }
    log('a node started with another JWT_SECRET refused to start: exit 1, "JWT_SECRET differs ..."')
  }

  balancer = await startBalancer(ports.balancer, ports.stats, nodes)
  const base = balancer.url
  const admin = await signIn(null, base, ADMIN)
  const synced = await eventually(async () => {
    const res = await call<{ runs?: { registrations?: { status: string } | null } }>(
      null,
      base,
      'GET',
      '/api/admin/sync/status',
      { token: admin.accessToken },
    )
    return res.body.runs?.registrations?.status === 'succeeded'
  }, 90_000)
  if (!synced) throw new Error('the start-up sync did not end well')

  await db.connect()
  const dispatches = (
    await db.query<{ id: string; company_id: string; count: number }>(
      'select id, destination_id as company_id, registration_count as count from dispatch where removed_at is null order by id',
    )
  ).rows
  const company = dispatches[0]!.company_id
  const { hashPassword } = await import('../../lib/passwords')
  await db.query(
    `insert into app_user (email, username, password_hash, role, company_id) values ($1, 'cluster-client', $2, 'client', $3)`,
    [CLIENT.email, await hashPassword(CLIENT.password), company],
  )
  // Alert mails: caps at the dispatches' counts, so the next evaluation raises usage alerts.
  const capped = dispatches.filter((d) => d.count > 0).slice(0, 4)
  for (const d of capped) {
    const res = await call(null, base, 'PUT', `/api/dispatches/${encodeURIComponent(d.id)}`, {
      token: admin.accessToken,
      body: { registrationCap: d.count },
    })
    if (res.status !== 200) throw new Error(`cap edit failed: ${res.status} ${JSON.stringify(res.body)}`)
  }
  // Clients request courses an admin made visible.
  const courseIds = (await db.query<{ id: string }>('update course set is_visible = true returning id')).rows.map(
    (r) => r.id,
  )
  const registrationIds = Array.from({ length: 60 }, (_, i) => sim.data.registrationAt(i)!.id)

  const record = createRecord()
  const loadStarted = Date.now()
  const until = loadStarted + loadMs
  const timeline = { kill: 0, down: 0, restarted: 0, up: 0, syncs: [] as number[] }
  log(`load for ${loadMs / 1000} s; ${nodes[killIndex]!.name} is killed with SIGKILL midway`)
  const load = runLoad(
    {
      balancer: base,
      nodes,
      sim,
      admin: ADMIN,
      client: CLIENT,
      dispatchIds: dispatches.map((d) => d.id),
      courseIds,
      registrationIds,
      postbackAuth: `Basic ${Buffer.from(`${POSTBACK.user}:${POSTBACK.password}`).toString('base64')}`,
      until,
    },
    record,
  )
  const events = (async () => {
    await pause(loadMs * 0.2)
    // A sync through the balancer, on whichever node it lands; 409 while another runs.
    for (const url of ['/api/dispatches/courses/sync', '/api/admin/companies/sync']) {
      let res = await call(record, base, 'GET', url, { token: admin.accessToken })
      while (res.status === 409 || res.status >= 500) {
        await pause(500)
        res = await call(record, base, 'GET', url, { token: admin.accessToken })
      }
      if (res.status !== 200) throw new Error(`sync ${url}: ${res.status} ${JSON.stringify(res.body)}`)
      timeline.syncs.push(Date.now())
    }
    // Early enough that the node is back (a start takes a while) before the load ends.
    await pause(Math.max(0, loadStarted + loadMs * 0.4 - Date.now()))
    const victim = nodes[killIndex]!
    timeline.kill = Date.now()
    await victim.kill('SIGKILL')
    const name = `node${killIndex + 1}`
    if (victim.role !== 'worker') {
      await eventually(async () => (await balancer!.states())[name]?.startsWith('DOWN') ?? false, 15_000, 50)
    }
    timeline.down = Date.now()
    await pause(3_000)
    timeline.restarted = Date.now()
    await victim.start()
    if (victim.role !== 'worker') {
      await eventually(async () => (await balancer!.states())[name] === 'UP', 15_000, 50)
    }
    timeline.up = Date.now()
  })()
  await Promise.all([load, events])
  log(
    `killed ${timeline.kill - loadStarted} ms into the load, out of the balancer ${timeline.down - timeline.kill} ms later, ` +
      `restarted and back ${timeline.up - timeline.restarted} ms after its start`,
  )
  failed = !(await checkCluster({ db, nodes, balancer: base, smtp, record, timeline, sim, log }))
} catch (error) {
  failed = true
  console.error(error)
  for (const node of nodes)
    console.error(`--- ${node.name} output (last 3000 characters)\n${node.output().slice(-3000)}`)
  if (balancer) console.error(`--- haproxy output\n${balancer.output().slice(-3000)}`)
} finally {
  await balancer?.stop()
  await Promise.all(nodes.map((node) => node.stop()))
  await db.end().catch(() => undefined)
  await pgdb.drop()
  await smtp.close()
  await sim.close()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
}
log(failed ? 'FAILED' : 'passed')
process.exit(failed ? 1 : 0)
