import { expect } from 'vitest'
import { eq } from 'drizzle-orm'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { course } from '../../db/schema'
import type { BreakerOptions } from '../../modules/scorm-cloud/circuit-breaker'
import { startTestSimulator } from '../../modules/sync/sync.test-support'
import { buildTestApp, testConfig, type TestContext } from '../helpers'
import { appParts } from '../../app'

type Headers = Record<string, string>

export interface ProviderFixture {
  sim: Simulator
  t: TestContext
  admin: Headers
  client: Headers
  dispatchId: string
  courseId: string
  close(): Promise<void>
}

/**
 * A test app wired to a small simulator through the real SCORM Cloud client, mirrored once, with
 * an admin and a client of the first dispatch's company. Backoff and breaker period are short so
 * failure paths take milliseconds; retries, timeouts' shape and Retry-After cap are production's.
 */
export async function providerFixture(breaker: Partial<BreakerOptions> = {}): Promise<ProviderFixture> {
  const sim = await startTestSimulator()
  const t = await buildTestApp({
    config: testConfig({ scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey } }),
    scormCloudTransport: {
      requestTimeoutMs: 400,
      backoffBaseMs: 5,
      backoffCapMs: 50,
      breaker: { failureThreshold: 5, openMs: 300, ...breaker },
    },
  })
  expect((await appParts(t.app).sync!.run({ trigger: 'startup' })).ok).toBe(true)
  const dispatchId = sim.data.listDispatchIds()[0]!
  const d = sim.data.getDispatch(dispatchId)!
  // Shown to clients, so the client's course details read is a real 200 read.
  await t.database.db.update(course).set({ isVisible: true }).where(eq(course.id, d.courseId!))
  const admin = (await t.loginAs('admin')).headers
  const client = (await t.loginAs('client', { companyId: d.destinationId! })).headers
  return {
    sim,
    t,
    admin,
    client,
    dispatchId,
    courseId: d.courseId!,
    async close() {
      await t.close()
      await sim.close()
    },
  }
}

/** Every read the browser makes on the dispatch, report, courses and companies screens. */
export function browserReads(f: ProviderFixture): { url: string; headers: Headers }[] {
  const { admin, client, dispatchId, courseId } = f
  const both = [
    '/api/dispatches?page=1',
    `/api/dispatches/${dispatchId}`,
    `/api/reports/dispatch/${dispatchId}?page=1`,
    '/api/dispatches/courses',
    `/api/courses/${courseId}/details`,
  ]
  const adminOnly = [
    '/api/dispatches/destinations',
    '/api/admin/companies',
    `/api/admin/companies/${f.sim.data.getDispatch(dispatchId)!.destinationId!}`,
    '/api/reports/registrations/count',
    '/api/admin/sync/status',
  ]
  return [
    ...both.map((url) => ({ url, headers: admin })),
    ...both.map((url) => ({ url, headers: client })),
    ...adminOnly.map((url) => ({ url, headers: admin })),
  ]
}

export async function readAll(f: ProviderFixture) {
  return Promise.all(
    browserReads(f).map(async ({ url, headers }) => {
      const res = await f.t.app.inject({ method: 'GET', url, headers })
      return { url, status: res.statusCode, body: res.json<unknown>() }
    }),
  )
}
