import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { Type } from 'typebox'
import type { Database } from '../../db/client'
import { createTestDatabase } from '../../test/test-database'
import { createJobEngine, defineJob, JobRejected, SCHEMA_TABLE, type JobEngine } from './job-engine'

const silent = { info() {}, warn() {}, error() {} }
let database: Database
let engine: JobEngine
const ran: string[] = []
let failuresLeft = 0

const echo = defineJob({
  name: 'test-echo',
  payload: Type.Object({ text: Type.String() }),
  async run(payloads) {
    ran.push(...payloads.map((p) => p.text))
    return { count: payloads.length }
  },
})
const flaky = defineJob({
  name: 'test-flaky',
  payload: Type.Object({}),
  retryLimit: 1,
  retryDelaySeconds: 1,
  async run() {
    if (failuresLeft > 0) {
      failuresLeft -= 1
      throw new Error('the mail server hung up')
    }
    return { ok: true }
  },
})
const gone = defineJob({
  name: 'test-gone',
  payload: Type.Object({ dispatchId: Type.String() }),
  async run([p]) {
    throw new JobRejected(`Dispatch ${p!.dispatchId} no longer exists.`)
  },
})

async function jobRow(id: string) {
  const { rows } = await engine
    .boss()
    .getDb()
    .executeSql(`select state, retry_count, output, start_after from ${SCHEMA_TABLE} where id = $1::uuid`, [id])
  return rows[0] as {
    state: string
    retry_count: number
    output: { message?: string; rejected?: boolean }
    start_after: Date
  }
}

beforeAll(async () => {
  database = await createTestDatabase()
  engine = createJobEngine({
    target: database.jobTarget,
    log: silent,
    working: true,
    background: false,
    instanceName: 'test',
  })
  engine.define(echo, flaky, gone)
  await engine.start()
})
afterAll(async () => {
  await engine?.stop()
  await database?.close()
})

describe('job engine (pg-boss, here on ' + (process.env.TEST_DB_KIND ?? 'pglite') + ')', () => {
  it('runs on Node 20 and says its state', () => {
    expect(process.versions.node.split('.')[0]).toBe('20')
    expect(engine.status()).toEqual({ state: 'running', working: true })
  })

  it('sends a job with the transaction that causes it: rolled back, there is no job; committed, it runs once', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await engine.send('test-echo', { text: 'rolled back' }, { tx })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    const id = await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      return engine.send('test-echo', { text: 'committed' }, { tx })
    })
    await engine.runDue()
    expect(ran).toEqual(['committed'])
    expect((await jobRow(id!)).state).toBe('completed')
    await engine.runDue()
    expect(ran).toEqual(['committed'])
  })

  it('refuses to send a payload that does not match the job', async () => {
    await expect(engine.send('test-echo', { text: 5 })).rejects.toThrow('does not match')
    await expect(engine.send('no-such-job', {})).rejects.toThrow('No job named no-such-job')
  })

  it('refuses a schedule whose payload does not match its job (every run would fail)', () => {
    expect(() => engine.schedule({ name: 'test-echo', cron: '* * * * *', data: { text: 5 } })).toThrow(
      "The test-echo schedule's payload does not match its job's schema.",
    )
  })

  it('retries a failing job with backoff, then keeps it failed with its error', async () => {
    failuresLeft = 5
    const id = (await engine.send('test-flaky', {}))!
    await engine.runDue()
    const first = await jobRow(id)
    expect(first.state).toBe('retry')
    expect(new Date(first.start_after).getTime()).toBeGreaterThan(Date.now())
    await new Promise((resolve) => setTimeout(resolve, new Date(first.start_after).getTime() - Date.now() + 200))
    await engine.runDue()
    const last = await jobRow(id)
    expect(last.state).toBe('failed')
    expect(last.retry_count).toBe(1)
    expect(last.output).toMatchObject({ message: 'the mail server hung up', rejected: false })
  }, 20_000)

  it('ends a job whose payload no longer matches with its reason, at once and never again', async () => {
    const rejected = (await engine.send('test-gone', { dispatchId: 'd-deleted' }))!
    // Sent around the schema check, as an older release or a hand-made row could have.
    const malformed = (await engine.boss().send('test-echo', { text: 42 }))!
    await engine.runDue()
    expect(await jobRow(rejected)).toMatchObject({
      state: 'failed',
      retry_count: 0,
      output: { message: 'Dispatch d-deleted no longer exists.', rejected: true },
    })
    expect(await jobRow(malformed)).toMatchObject({
      state: 'failed',
      retry_count: 0,
      output: {
        message: expect.stringContaining('The payload no longer matches the test-echo job: /text'),
        rejected: true,
      },
    })
    expect(ran).not.toContain(42)
  })

  it('sends nothing when it is not running', async () => {
    const stopped = createJobEngine({
      target: database.jobTarget,
      log: silent,
      working: false,
      background: false,
      instanceName: 'web',
    })
    stopped.define(echo)
    await expect(stopped.send('test-echo', { text: 'x' })).rejects.toThrow('The job engine is stopped.')
    expect(stopped.status()).toEqual({ state: 'stopped', working: false })
  })
})
