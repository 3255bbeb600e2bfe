import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import pg from 'pg'
import type { Database } from '../../db/client'
import { createJobEngine, defineJob, SCHEMA_TABLE, type JobEngine } from '../../modules/jobs/job-engine'
import { createTestDatabase, usingPostgres } from '../test-database'

/**
 * Reliability suite: PostgreSQL goes away while a job runs (every backend of the database
 * terminated and new connections refused, as in a restart) and comes back. pg-boss keeps a job
 * as a row: claimed (active) until its completion is committed. Back before the job ends: the
 * job completes once. Back only after: its completion is lost with the connection, the row stays
 * active until its expiry, and the maintenance pass hands it out again, so the job is never
 * lost; it runs a second time, and the portal's jobs are idempotent (outbox leases and handover,
 * alert and mail idempotency keys, the sync's advisory lock and cursors), so its effect is once.
 */
describe.runIf(usingPostgres())('PostgreSQL restarting while a job runs', () => {
  const { Client } = pg
  let database: Database & { pool?: pg.Pool }
  let engine: JobEngine
  let release: () => void = () => {}
  let started: () => void = () => {}
  const runs: number[] = []
  const errors: unknown[] = []

  const effectful = defineJob({
    name: 'test-effect',
    payload: Type.Object({ key: Type.String() }),
    expireInSeconds: 1,
    retryDelaySeconds: 1,
    async run([p]) {
      runs.push(Date.now())
      // The job's effect, idempotent by its key, as the portal's jobs' effects are.
      await database.pool!.query('insert into job_effect (key) values ($1) on conflict do nothing', [p!.key])
      started()
      await new Promise<void>((resolve) => (release = resolve))
    },
  })

  /** From the server's maintenance database, as an operator restarting it would. */
  const outage = async (on: boolean) => {
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL })
    await admin.connect()
    try {
      await admin.query(`alter database ${name} allow_connections ${on ? 'false' : 'true'}`)
      if (on) await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name])
    } finally {
      await admin.end()
    }
  }
  let name = ''
  const job = async (id: string) =>
    (
      await database.pool!.query<{ state: string; retry_count: number; start_after: Date }>(
        `select state, retry_count, start_after from ${SCHEMA_TABLE} where id = $1`,
        [id],
      )
    ).rows[0]!
  const effects = async (key: string) =>
    Number((await database.pool!.query('select count(*)::int as n from job_effect where key = $1', [key])).rows[0].n)
  const nextStart = () => new Promise<void>((resolve) => (started = resolve))

  beforeAll(async () => {
    database = await createTestDatabase()
    await database.pool!.query('create table job_effect (key text primary key)')
    name = (await database.pool!.query<{ db: string }>('select current_database() as db')).rows[0]!.db
    engine = createJobEngine({
      target: database.jobTarget,
      log: { info() {}, warn() {}, error: (obj) => errors.push(obj) },
      working: true,
      background: false,
      instanceName: 'test',
    })
    engine.define(effectful)
    await engine.start()
  })
  afterAll(async () => {
    release()
    await engine?.stop()
    await database?.close()
  })

  it('back before the job ends: the job completes, once', async () => {
    const id = (await engine.send('test-effect', { key: 'short' }))!
    const began = nextStart()
    const running = engine.runDue()
    await began
    await outage(true)
    await outage(false)
    release()
    await running
    expect(await job(id)).toMatchObject({ state: 'completed', retry_count: 0 })
    expect(await effects('short')).toBe(1)
    expect(runs).toHaveLength(1)
  }, 30_000)

  it('back only after the job ended: the job is not lost, runs again after its expiry, and its effect is once', async () => {
    runs.length = 0
    const id = (await engine.send('test-effect', { key: 'long' }))!
    const began = nextStart()
    const running = engine.runDue(3_000).catch((error: unknown) => error)
    await began
    await outage(true)
    // The job's effect is written, but its completion cannot be: every connection is gone and
    // new ones are refused.
    release()
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await outage(false)
    // runDue gives up waiting for it: the job is still claimed.
    expect(await running).toEqual(new Error('runDue: jobs still pending after the timeout'))
    expect(await effects('long')).toBe(1)
    expect((await job(id)).state).toBe('active')
    // Past its expiry, the maintenance pass (every few minutes on a worker node) gives it back.
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    await engine.boss().supervise()
    const retried = await job(id)
    expect(retried.state).toBe('retry')
    // After its retry delay.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, new Date(retried.start_after).getTime() - Date.now()) + 200),
    )
    const again = nextStart()
    const rerun = engine.runDue()
    await again
    release()
    await rerun
    expect(await job(id)).toMatchObject({ state: 'completed', retry_count: 1 })
    expect(runs).toHaveLength(2)
    expect(await effects('long')).toBe(1)
  }, 60_000)
})
