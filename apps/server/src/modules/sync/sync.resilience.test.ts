import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { PAGE_RETRY } from './page-retry'
import {
  mirrorRows,
  stopRegistrationsAfterThreePages,
  syncRuns,
  tick,
  useFixturesOnFaultySimulator,
} from './sync.test-support'

const suite = useFixturesOnFaultySimulator()
const fixture = suite.fixture

const served = () => suite.sim.stats().total

describe('a sync stopped midway', () => {
  it('ends, once re-run, with the same rows as a clean run on a fresh database', async () => {
    const interrupted = await fixture()
    stopRegistrationsAfterThreePages(suite.sim)
    const first = await interrupted.sync.run({ trigger: 'startup' })
    expect(first.ok).toBe(false)
    const failed = first.results.find((r) => r.kind === 'registrations')!
    expect(failed).toMatchObject({ status: 'failed', created: 21 })
    expect(failed.message).toMatch(/Too many requests/)
    suite.sim.clearFaults()
    expect((await interrupted.sync.run({ trigger: 'schedule' })).ok).toBe(true)

    const clean = await fixture()
    expect((await clean.sync.run({ trigger: 'startup' })).ok).toBe(true)
    expect(await mirrorRows(interrupted.database.db, { volatile: false })).toEqual(
      await mirrorRows(clean.database.db, { volatile: false }),
    )
  })
})

describe('when SCORM Cloud fails', () => {
  it('keeps the mirror answering and records the failed run with the provider message', async () => {
    const f = await fixture()
    await f.sync.run({ trigger: 'startup' })
    const before = await mirrorRows(f.database.db)
    await suite.sim.stop()
    try {
      const outcome = await f.sync.run({ trigger: 'manual', full: true })
      expect(outcome.ok).toBe(false)
      const runs = (await syncRuns(f.database.db)).slice(-4)
      expect(runs.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed'])
      expect(runs[0]!.message).toBe('SCORM Cloud could not be reached.')
      expect(runs.every((r) => r.message && r.finishedAt)).toBe(true)
      expect(await mirrorRows(f.database.db)).toEqual(before)
      const status = await f.sync.status()
      expect(status.scormCloud).toMatchObject({ reachable: false })
      expect(status.scormCloud.lastError).toBeTruthy()
      expect(status.runs.courses).toMatchObject({ status: 'failed', message: 'SCORM Cloud could not be reached.' })
    } finally {
      await suite.sim.start()
    }
    await tick(120) // the breaker's open period in tests
    expect((await f.sync.run({ trigger: 'manual' })).ok).toBe(true)
    expect((await f.sync.status()).scormCloud).toEqual({ reachable: true, circuit: 'closed', lastError: null })
  })

  it('completes through injected errors with a bounded number of attempts', async () => {
    const f = await fixture({ breaker: { failureThreshold: 8, openMs: 100 } })
    suite.sim.resetStats()
    suite.sim.setFaults({ errorRate: 0.3 })
    const outcome = await f.sync.run({ trigger: 'startup' })
    expect(outcome.ok).toBe(true)
    const stats = suite.sim.stats()
    const answered = stats.byStatus['200'] ?? 0
    expect(stats.faults.errors).toBeGreaterThan(0)
    expect(f.client.attempts()).toBe(stats.total)
    expect(f.client.attempts()).toBe(answered + stats.faults.errors)
    expect(f.client.attempts()).toBeLessThanOrEqual(answered * 3)
    expect((await mirrorRows(f.database.db)).registrations).toHaveLength(suite.sim.data.counts().registrations)
  })

  it('honours Retry-After on 429', async () => {
    const waits: number[] = []
    const f = await fixture({ sleep: async (ms) => void waits.push(ms), maxRetryAfterMs: 5_000 })
    suite.sim.setFaults({ rateLimitBurst: { every: 5, length: 1, retryAfterSeconds: 2 } })
    const outcome = await f.sync.run({ trigger: 'startup' })
    expect(outcome.ok).toBe(true)
    expect(suite.sim.stats().faults.rateLimited).toBeGreaterThan(0)
    expect(waits.length).toBeGreaterThan(0)
    expect(waits.every((ms) => ms >= 2_000)).toBe(true)
  })

  it('gives up on a page that does not answer within the request timeout, after its page budget', async () => {
    const f = await fixture({ requestTimeoutMs: 250, breaker: { failureThreshold: 10, openMs: 100 } })
    suite.sim.setFaults({ latencyMs: 1_500 })
    const before = f.client.attempts()
    const result = await f.sync.syncCourses('manual')
    expect(result).toMatchObject({ status: 'failed', message: 'SCORM Cloud did not answer in time.' })
    // 3 attempts per call (the client), 3 calls per page (the sync's page budget).
    expect(f.client.attempts() - before).toBe(3 * PAGE_RETRY.tries)
    suite.sim.clearFaults()
    expect(await f.sync.syncCourses('manual')).toMatchObject({ status: 'succeeded' })
  })

  it('opens the circuit after repeated failures, fails fast without calling SCORM Cloud, and closes it when it is back', async () => {
    const f = await fixture({ breaker: { failureThreshold: 3, openMs: 600 } })
    suite.sim.setFaults({ errorRate: 1, errorStatuses: [503] })
    expect(await f.sync.syncCourses('manual')).toMatchObject({ status: 'failed' })
    expect(f.client.breaker.state).toBe('open')
    expect((await f.sync.status()).scormCloud).toMatchObject({ reachable: false, circuit: 'open' })

    const calls = served()
    const fast = await f.sync.syncCourses('manual')
    expect(fast.status).toBe('failed')
    expect(fast.message).toMatch(/SCORM Cloud is unavailable/)
    expect(served()).toBe(calls) // the simulator saw nothing

    suite.sim.clearFaults()
    await tick(650)
    expect((await f.sync.status()).scormCloud.circuit).toBe('half-open')
    expect(await f.sync.syncCourses('manual')).toMatchObject({ status: 'succeeded' })
    expect((await f.sync.status()).scormCloud).toEqual({ reachable: true, circuit: 'closed', lastError: null })
  })

  it('retries a page whose body stops arriving, instead of failing with a raw abort', async () => {
    let served = 0
    const server = createServer((_req, res) => {
      served += 1
      res.writeHead(200, { 'content-type': 'application/json' })
      if (served === 1)
        res.write('{"courses": [') // headers sent, then the body stalls
      else res.end(JSON.stringify({ courses: [{ id: 'c1', title: 'One' }] }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const client = createScormCloudClient({
      baseUrl: `http://127.0.0.1:${port}/api/v2`,
      appId: 'a',
      secretKey: 's',
      requestTimeoutMs: 100,
      backoffBaseMs: 1,
    })
    try {
      const pages = []
      for await (const page of client.courses()) pages.push(page)
      expect(pages).toEqual([[{ id: 'c1', title: 'One' }]])
      expect(client.attempts()).toBe(2)
    } finally {
      await client.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
