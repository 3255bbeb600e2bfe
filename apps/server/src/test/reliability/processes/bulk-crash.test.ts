import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { startTestSimulator } from '../../../modules/sync/sync.test-support'
import {
  call,
  createPgDatabase,
  eventually,
  signIn,
  simulatorEnv,
  startServer,
  startupSynced,
  type PgDatabase,
  type ServerProcess,
} from './server-process'

/**
 * A bulk run whose server is killed (SIGKILL) mid-run, on PostgreSQL: the items it had settled
 * stay settled, the ones it had claimed and the ones not reached are carried out by the next
 * process once the dead one's lease is over, and the run ends with every dispatch done.
 */
let sim: Simulator
let pgdb: PgDatabase
let server: ServerProcess | null = null

beforeAll(async () => {
  sim = await startTestSimulator({
    sizes: { courses: 10, destinations: 3, dispatches: 30, registrations: 30, bigDispatchRegistrations: 0 },
  })
  pgdb = await createPgDatabase('portal_bulk_crash')
})
afterAll(async () => {
  await server?.stop(5_000)
  await pgdb?.drop()
  await sim?.close()
})

async function inDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgdb.url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

interface Progress {
  status: string
  total: number
  done: number
  failed: number
}

describe.runIf(process.env.TEST_DATABASE_URL)('bulk run: server killed mid-run (PostgreSQL)', () => {
  it('carries the run on in the next process: every item done, the settled ones not redone', async () => {
    const env = { DATABASE_URL: pgdb.url, ...simulatorEnv(sim) }
    server = await startServer(env)
    const { accessToken: token } = await signIn(server.url)
    expect(await startupSynced(server.url, token), server.output()).toBe(true)

    const ids = sim.data.listDispatchIds()
    for (const id of ids) sim.touchDispatch(id, { enabled: true })
    // Each dispatch write answers slowly, so the kill lands mid-run.
    sim.setFaults({ latencyMs: 150, onlyPaths: ['/dispatch/dispatches/'] })
    const started = await call<{ id: string; total: number }>(server.url, 'POST', '/api/dispatches/bulk', {
      token,
      body: { action: 'disable', dispatchIds: ids },
    })
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const runId = started.body.id
    const progress = () => call<Progress>(server!.url, 'GET', `/api/dispatches/bulk/${runId}`, { token })
    expect(await eventually(async () => (await progress()).body.done >= 3, 60_000, 50), server.output()).toBe(true)

    server.child.kill('SIGKILL')
    expect(await server.exited).toBe('SIGKILL')
    server = null
    const left = await inDatabase(async (c) => {
      const rows = await c.query<{ status: string; n: number }>(
        'select status, count(*)::int as n from bulk_run_item where run_id = $1 group by status',
        [runId],
      )
      return Object.fromEntries(rows.rows.map((r) => [r.status, r.n]))
    })
    expect(left.done ?? 0).toBeGreaterThanOrEqual(3)
    expect(left.done ?? 0).toBeLessThan(ids.length)
    expect(left.running ?? 0).toBeGreaterThan(0)

    // The dead process's lease runs out: moved into the past rather than waited for.
    await inDatabase((c) =>
      c.query(
        `update bulk_run_item set claimed_at = now() - interval '1 hour' where run_id = $1 and status = 'running'`,
        [runId],
      ),
    )
    sim.clearFaults()
    server = await startServer(env)
    const next = await signIn(server.url)
    let last: Progress | null = null
    const finished = await eventually(
      async () => {
        last = (await call<Progress>(server!.url, 'GET', `/api/dispatches/bulk/${runId}`, { token: next.accessToken }))
          .body
        return last.status === 'finished'
      },
      120_000,
      250,
    )
    expect(finished, `${JSON.stringify(last)}\n${server.output()}`).toBe(true)
    expect(last).toMatchObject({ status: 'finished', total: ids.length, done: ids.length, failed: 0 })
    for (const id of ids) expect(sim.data.getDispatch(id)!.enabled).toBe(false)

    // Logged under the run; an item settled before the kill was not carried out again (the one
    // in flight at the kill may have been: disabling twice changes nothing).
    const logged = await inDatabase(async (c) => {
      const rows = await c.query<{ n: number }>(
        `select count(*)::int as n from activity_log where action = 'DISPATCH_UPDATED' and actor_name like $1`,
        [`Bulk run ${runId.slice(0, 8)} %`],
      )
      return rows.rows[0]!.n
    })
    expect(logged).toBeGreaterThanOrEqual(ids.length)
    expect(logged).toBeLessThanOrEqual(ids.length + 1)
  }, 240_000)
})
