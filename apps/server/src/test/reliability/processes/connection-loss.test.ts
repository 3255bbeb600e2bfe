import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import type { RegistrationSchema } from '../../../modules/scorm-cloud/scorm-cloud.types'
import { SMALL_SIZES, startTestSimulator } from '../../../modules/sync/sync.test-support'
import { SYNC_LOCK_KEY, SYNC_LOCK_LOST_MESSAGE } from '../../../modules/sync/sync.service'
import {
  call,
  createPgDatabase,
  eventually,
  signIn,
  startServer,
  simulatorEnv,
  type PgDatabase,
  type ServerProcess,
} from './server-process'

/**
 * Reliability suite: the real server on PostgreSQL while the backends of
 * connections it holds checked out are terminated: the one holding the sync's advisory lock
 * (found in pg_locks) during a sync, and every connection while postbacks stream in. Before the
 * fix the process exited with code 1 at the first one ("closing after an error"). Now it stays
 * up, the sync fails with a message and its sync_run row is closed, postbacks answer 503 (SCORM
 * Cloud retries them), and the next run works.
 */
const POSTBACK_AUTH = `Basic ${Buffer.from('scorm-cloud:reliability-postback-secret').toString('base64')}`

let sim: Simulator
let pgdb: PgDatabase
let server: ServerProcess
let token: string

beforeAll(async () => {
  sim = await startTestSimulator({ sizes: { ...SMALL_SIZES, registrations: 200 } })
  // Slow registration pages (29 of them): the start-up sync is still listing them when the test cuts in.
  sim.setFaults({ latencyMs: 600, onlyPaths: ['/registrations'] })
  pgdb = await createPgDatabase()
  server = await startServer({ DATABASE_URL: pgdb.url, ...simulatorEnv(sim) })
  token = (await signIn(server.url)).accessToken
})
afterAll(async () => {
  await server?.stop(5_000)
  await pgdb?.drop()
  await sim?.close()
})

const alive = () => server.child.exitCode === null && server.child.signalCode === null
/** A query on the test database itself, on a connection of its own (the terminations spare nothing). */
async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgdb.url })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query(text, values)).rows as T[]
  } finally {
    await client.end().catch(() => undefined)
  }
}

const maintenance = async <T>(text: string, values: unknown[] = []) => (await pgdb.query(text, values)).rows as T[]

/** The backend holding the sync lock in the test database, if any. */
async function lockHolder(): Promise<number | null> {
  const found = await maintenance<{ pid: number }>(
    `select l.pid from pg_locks l join pg_database d on d.oid = l.database
     where l.locktype = 'advisory' and l.objid = $1 and l.granted and d.datname = $2`,
    [SYNC_LOCK_KEY, pgdb.name],
  )
  return found[0]?.pid ?? null
}

const runRow = async (kind: string) =>
  (
    await rows<{ id: number; status: string; message: string | null; finished: boolean }>(
      `select id, status, message, finished_at is not null as finished from sync_run
       where kind = $1 order by id desc limit 1`,
      [kind],
    )
  )[0]

describe('the backend holding the sync lock is terminated during a sync', () => {
  it('keeps the process up, closes the run as failed with a message, and the next run works', async () => {
    // The start-up sync is listing registrations, slowly, and holds the lock.
    expect(await eventually(async () => (await runRow('registrations'))?.status === 'running', 60_000)).toBe(true)
    const pid = await lockHolder()
    expect(pid).not.toBeNull()
    await maintenance('select pg_terminate_backend($1)', [pid])

    expect(
      await eventually(async () => (await runRow('registrations'))?.status === 'failed', 30_000),
      server.output(),
    ).toBe(true)
    expect(await runRow('registrations')).toMatchObject({ message: SYNC_LOCK_LOST_MESSAGE, finished: true })
    expect(await rows(`select id from sync_run where status = 'running'`)).toEqual([])
    expect(alive()).toBe(true)

    // The next runs take the lock again and work.
    sim.clearFaults()
    const courses = await call(server.url, 'GET', '/api/dispatches/courses/sync', { token })
    expect(courses.status, JSON.stringify(courses.body)).toBe(200)
    const companies = await call(server.url, 'GET', '/api/admin/companies/sync', { token })
    expect(companies.status).toBe(200)
    expect(await lockHolder()).toBeNull()
  })

  it('answers a sync started from a screen 503 with the message when its lock is lost', async () => {
    sim.setFaults({ latencyMs: 700, onlyPaths: ['/courses'] })
    const answer = call(server.url, 'GET', '/api/dispatches/courses/sync', { token })
    expect(await eventually(async () => (await lockHolder()) !== null, 10_000, 20)).toBe(true)
    await maintenance('select pg_terminate_backend($1)', [await lockHolder()])
    const res = await answer
    sim.clearFaults()
    expect(res).toEqual({ status: 503, body: { code: 'NOT_READY', message: SYNC_LOCK_LOST_MESSAGE } })
    expect(await runRow('courses')).toMatchObject({ status: 'failed', message: SYNC_LOCK_LOST_MESSAGE, finished: true })
    expect(alive()).toBe(true)
    expect((await call(server.url, 'GET', '/api/dispatches/courses/sync', { token })).status).toBe(200)
  })
})

describe('backends terminated while postbacks stream in', () => {
  it('keeps the process up and answers each postback 200 or 503; resent ones are all stored', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => sim.data.registrationAt(i)!.id)
    const post = (body: RegistrationSchema) =>
      fetch(`${server.url}/api/webhooks/scorm-cloud/registrations`, {
        method: 'POST',
        headers: { authorization: POSTBACK_AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as { code?: string } }),
        () => ({ status: 0, body: {} as { code?: string } }),
      )

    let streaming = true
    let terminated = 0
    const terminator = (async () => {
      while (streaming) {
        terminated += await pgdb.terminateConnections()
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    const latest = new Map<string, RegistrationSchema>()
    const retry: RegistrationSchema[] = []
    const statuses: number[] = []
    for (let round = 0; round < 8; round++) {
      const batch = ids.map((id) => sim.advanceRegistration(id))
      const answers = await Promise.all(batch.map(post))
      answers.forEach((answer, i) => {
        statuses.push(answer.status)
        latest.set(batch[i]!.id, batch[i]!)
        if (answer.status === 503) {
          expect(answer.body.code).toBe('NOT_READY')
          retry.push(batch[i]!)
        }
      })
    }
    streaming = false
    await terminator

    expect(terminated).toBeGreaterThan(0)
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    expect(alive()).toBe(true)
    // SCORM Cloud retries what was answered 503; an older copy than the stored one changes nothing.
    for (const body of retry) {
      let last: unknown = null
      const delivered = await eventually(async () => {
        last = await post(body)
        return (last as { status: number }).status === 200
      }, 20_000)
      expect(delivered, `${JSON.stringify(last)}\n${server.output().slice(-3000)}`).toBe(true)
    }
    const stored = await rows<{ id: string; updated: string }>(
      `select id, to_char(provider_updated at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated
       from registration where id = any($1)`,
      [ids],
    )
    expect(Object.fromEntries(stored.map((r) => [r.id, r.updated]))).toEqual(
      Object.fromEntries([...latest].map(([id, reg]) => [id, reg.updated])),
    )
    console.info(`postbacks: ${statuses.length}, answered 503: ${retry.length}, backends terminated: ${terminated}`)
  })
})
