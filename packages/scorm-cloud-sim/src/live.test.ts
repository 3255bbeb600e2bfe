import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from './simulator'
import { testClient } from './test-support'
import type { RegistrationSchema } from '@portal/server/scorm-cloud-types'

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A webhook receiver that answers the first `failFirst` postbacks with 500. */
async function receiver(failFirst = 0): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = []
  let calls = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      calls++
      if (calls <= failFirst) {
        res.writeHead(500).end()
        return
      }
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { url: `http://127.0.0.1:${port}/postback`, received, server }
}

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('live mode and postbacks', () => {
  let sim: Simulator | undefined
  let hook: Awaited<ReturnType<typeof receiver>> | undefined

  beforeEach(() => {
    sim = undefined
    hook = undefined
  })
  afterEach(async () => {
    await sim?.close()
    await new Promise((resolve) => (hook ? hook.server.close(resolve) : resolve(undefined)))
  })

  it('moves registrations forward on its timer and posts them with Basic auth', async () => {
    hook = await receiver()
    sim = await startSimulator({
      seed: 11,
      live: {
        intervalMs: 50,
        batchSize: 3,
        postbackUrl: hook.url,
        postbackUser: 'hook-user',
        postbackPassword: 'hook-pass',
      },
    })
    const started = Date.now()
    await until(() => (hook?.received.length ?? 0) >= 3)
    const first = hook.received[0] as Received
    expect(first.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`)
    expect(first.headers['content-type']).toMatch(/^application\/json/)
    const posted = JSON.parse(first.body) as RegistrationSchema
    expect(posted.dispatchId).toBeTruthy()
    expect(posted.learner?.id).toBeTruthy()
    expect(Date.parse(posted.updated ?? '')).toBeGreaterThanOrEqual(started - 1_000)
    expect(posted.lastAccessDate).toBe(posted.updated)
    // The postback carries exactly what the API now serves for that registration...
    const served = await testClient(sim).get<RegistrationSchema>(`/registrations/${posted.id}`)
    expect(Date.parse(served.body.updated ?? '')).toBeGreaterThanOrEqual(Date.parse(posted.updated ?? ''))
    // ...and the incremental listing finds the changes.
    const since = new Date(started - 1_000).toISOString()
    const changed = await testClient(sim).getAll<RegistrationSchema>(
      `/registrations?since=${since}&datetimeFilter=updated`,
      'registrations',
    )
    expect(changed.items.map((r) => r.id)).toContain(posted.id)
  })

  it('advances state in order: not attempted -> incomplete -> completed', async () => {
    sim = await startSimulator({ seed: 12 })
    const fresh = (await testClient(sim).getAll<RegistrationSchema>('/registrations', 'registrations')).items.find(
      (r) => r.registrationCompletion === 'UNKNOWN',
    ) as RegistrationSchema
    const step1 = sim.advanceRegistration(fresh.id)
    expect(step1.registrationCompletion).toBe('INCOMPLETE')
    expect(Number.isNaN(Date.parse(step1.firstAccessDate ?? ''))).toBe(false)
    expect(step1.totalSecondsTracked).toBeGreaterThan(fresh.totalSecondsTracked ?? 0)
    let current = step1
    for (let n = 0; n < 50 && current.registrationCompletion !== 'COMPLETED'; n++)
      current = sim.advanceRegistration(fresh.id)
    expect(current.registrationCompletion).toBe('COMPLETED')
    expect(Date.parse(current.completedDate ?? '')).toBeGreaterThanOrEqual(Date.parse(step1.firstAccessDate ?? ''))
    expect(['PASSED', 'FAILED', 'UNKNOWN']).toContain(current.registrationSuccess)
  })

  it('retries failed postbacks with backoff and still delivers', async () => {
    hook = await receiver(2)
    sim = await startSimulator({
      seed: 13,
      live: { intervalMs: 0, postbackUrl: hook.url, postbackBackoffMs: 20, postbackRetries: 3 },
    })
    const reg = sim.data.registrationAt(3) as RegistrationSchema
    const touched = sim.touchRegistration(reg.id, { totalSecondsTracked: 4242 })
    await sim.postbacksIdle()
    expect(hook.received).toHaveLength(1)
    expect(JSON.parse(hook.received[0]?.body ?? '{}')).toEqual(touched)
    expect(sim.stats().postbacks).toMatchObject({ queued: 1, attempts: 3, delivered: 1, failedAttempts: 2, dropped: 0 })
  })

  it('drops a postback after the last retry without disturbing the simulator', async () => {
    hook = await receiver(100)
    sim = await startSimulator({
      seed: 14,
      live: { intervalMs: 0, postbackUrl: hook.url, postbackBackoffMs: 10, postbackRetries: 2 },
    })
    sim.touchRegistration((sim.data.registrationAt(0) as RegistrationSchema).id, { score: 55 })
    await sim.postbacksIdle()
    expect(sim.stats().postbacks).toMatchObject({ attempts: 3, delivered: 0, dropped: 1 })
    expect((await testClient(sim).get('/ping')).status).toBe(200)
  })

  it('liveTick changes registrations and can add new ones, keeping dispatch counters right', async () => {
    sim = await startSimulator({ seed: 15, live: { intervalMs: 0, batchSize: 20, newRegistrationRate: 0.5 } })
    const total = sim.data.counts().registrations
    const changed = sim.liveTick()
    expect(changed.length).toBeGreaterThan(0)
    const added = sim.data.counts().registrations - total
    expect(added).toBeGreaterThan(0)
    const all = await testClient(sim).getAll<RegistrationSchema>(
      '/registrations?includeTotalCount=true',
      'registrations',
    )
    expect(all.totalCount).toBe(total + added)
    const perDispatch = new Map<string, number>()
    for (const r of all.items) perDispatch.set(r.dispatchId ?? '', (perDispatch.get(r.dispatchId ?? '') ?? 0) + 1)
    for (const id of sim.data.listDispatchIds())
      expect(sim.data.getDispatch(id)?.registrationCount).toBe(perDispatch.get(id) ?? 0)
  })
})
