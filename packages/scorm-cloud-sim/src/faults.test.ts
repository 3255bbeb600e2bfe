import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient, type TestClient } from './test-support'

describe('fault injection and availability', () => {
  let sim: Simulator
  let api: TestClient

  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, sizes: { courses: 5, destinations: 3, dispatches: 8, registrations: 50 } })
    api = testClient(sim)
  })
  afterAll(() => sim.close())

  it('errorRate 1 answers every request with 500 or 503 and a JSON message', async () => {
    sim.setFaults({ errorRate: 1 })
    const statuses = new Set<number>()
    for (let n = 0; n < 20; n++) {
      const res = await api.get<{ message: string }>('/dispatch/dispatches')
      expect([500, 503]).toContain(res.status)
      expect(typeof res.body.message).toBe('string')
      statuses.add(res.status)
    }
    expect(statuses.size).toBe(2)
    sim.clearFaults()
    expect((await api.get('/dispatch/dispatches')).status).toBe(200)
  })

  it('failNext fails exactly that many requests', async () => {
    sim.setFaults({ failNext: 2, errorStatuses: [503] })
    expect((await api.get('/ping')).status).toBe(503)
    expect((await api.get('/ping')).status).toBe(503)
    expect((await api.get('/ping')).status).toBe(200)
    sim.clearFaults()
  })

  it('rate-limit bursts answer 429 with Retry-After', async () => {
    sim.setFaults({ rateLimitBurst: { every: 5, length: 2, retryAfterSeconds: 7 } })
    const statuses: number[] = []
    for (let n = 0; n < 10; n++) {
      const res = await api.get<{ message?: string }>('/courses')
      statuses.push(res.status)
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('7')
        expect(typeof res.body.message).toBe('string')
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 200, 200, 200, 429, 429])
    sim.clearFaults()
  })

  it('applies faults only to the configured paths', async () => {
    sim.setFaults({ errorRate: 1, onlyPaths: ['/registrations'] })
    expect((await api.get('/courses')).status).toBe(200)
    expect([500, 503]).toContain((await api.get('/registrations')).status)
    sim.clearFaults()
  })

  it('dropAnswerNext carries out the next change and cuts the connection before answering', async () => {
    const id = sim.data.listDispatchIds()[0]!
    sim.setFaults({ dropAnswerNext: 1 })
    // Reads are never dropped: the fault waits for a change.
    expect((await api.get(`/dispatch/dispatches/${id}`)).status).toBe(200)
    await expect(api.put(`/dispatch/dispatches/${id}`, { notes: 'answer lost' })).rejects.toThrow()
    expect(sim.data.getDispatch(id)!.notes).toBe('answer lost')
    expect(sim.stats().faults.answersDropped).toBe(1)
    expect((await api.put(`/dispatch/dispatches/${id}`, { notes: 'answered' })).status).toBe(204)
    expect(sim.data.getDispatch(id)!.notes).toBe('answered')
    sim.clearFaults()
  })

  it('adds the configured latency', async () => {
    sim.setFaults({ latencyMs: 150 })
    await onFakeClock(async (passWaits) => {
      const started = performance.now()
      const res = await passWaits(api.get('/ping'), () => sim.stats().faults.delayed, 150)
      expect(res.status).toBe(200)
      expect(performance.now() - started).toBeGreaterThanOrEqual(145)
    })
    sim.clearFaults()
  })

  it('stalls requests at stallRate 1 until stallMs has passed', async () => {
    sim.setFaults({ stallRate: 1, stallMs: 200 })
    await onFakeClock(async (passWaits) => {
      const started = performance.now()
      expect((await passWaits(api.get('/ping'), () => sim.stats().faults.stalled, 200)).status).toBe(200)
      expect(performance.now() - started).toBeGreaterThanOrEqual(195)
    })
    expect(sim.stats().faults.stalled).toBeGreaterThanOrEqual(1)
    sim.clearFaults()
  })

  it('stop() refuses connections and start() listens again on the same port', async () => {
    const port = sim.port
    const url = sim.url
    await sim.stop()
    expect(sim.listening).toBe(false)
    await expect(fetch(`${url}/ping`, { headers: { Authorization: sim.authorization } })).rejects.toThrow()
    await sim.start()
    expect(sim.port).toBe(port)
    expect(sim.url).toBe(url)
    expect((await api.get('/ping')).status).toBe(200)
  })

  it('stop() ends a stalled request instead of waiting for it', async () => {
    sim.setFaults({ stallRate: 1, stallMs: 60_000 })
    const pending = fetch(`${sim.url}/ping`, { headers: { Authorization: sim.authorization } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Were stop() to wait for the 60 s stall, this test would exceed its 30 s timeout.
    await sim.stop()
    await expect(pending).rejects.toThrow()
    sim.clearFaults()
    await sim.start()
    expect((await api.get('/ping')).status).toBe(200)
  })
})

/**
 * The simulator's waits (setTimeout) and the test's stopwatch (performance.now) run on
 * vitest's fake clock, so a test moves the clock instead of sleeping the wait out. `passWaits`
 * lets the request reach the simulator (real I/O, polled with setImmediate, which stays real)
 * until `waits()` counts one more wait, then moves the clock by `ms` (the answer may not come sooner).
 */
async function onFakeClock(
  body: (passWaits: <T>(request: Promise<T>, waits: () => number, ms: number) => Promise<T>) => Promise<void>,
) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  try {
    await body(async (request, waits, ms) => {
      let answered = false
      void request.finally(() => (answered = true)).catch(() => {})
      const before = waits()
      while (waits() === before) await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(ms - 1)
      expect(answered, 'answered before the wait was over').toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      return request
    })
  } finally {
    vi.useRealTimers()
  }
}
