import { and, desc, eq } from 'drizzle-orm'
import type { ActivityAction } from '@portal/shared'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { activityLog, course, dispatch } from '../../db/schema'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { startTestSimulator } from '../sync/sync.test-support'
import { appParts } from '../../app'
import type { AppConfig } from '../../config'

export type Headers = Record<string, string>

export interface ProviderApp {
  sim: Simulator
  t: TestContext
  admin: Headers
  /** A client of `companyId`, the company of the simulator's first dispatch. */
  client: Headers
  companyId: string
  /** The first dispatch (of `companyId`) and another company's. */
  ownDispatchId: string
  foreignDispatchId: string
  /** A course `companyId` has no dispatch of, visible in the catalogue. */
  freeCourseId: string
  /** Activity rows of one action, newest first. */
  activity(action: ActivityAction): Promise<(typeof activityLog.$inferSelect)[]>
  mirrorRow(id: string): Promise<typeof dispatch.$inferSelect | undefined>
  close(): Promise<void>
}

/**
 * Test support for dispatch creation, packages and counter resets: the app wired to a small simulator through the real SCORM Cloud
 * client, mirrored once. Short timeouts and backoff keep failure paths fast; the breaker needs
 * many failures so one test's faults do not open it for the next.
 */
export async function providerApp(config: Partial<AppConfig> = {}): Promise<ProviderApp> {
  const sim = await startTestSimulator()
  const t = await buildTestApp({
    config: testConfig({ scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey }, ...config }),
    scormCloudTransport: {
      requestTimeoutMs: 1_000,
      backoffBaseMs: 5,
      backoffCapMs: 20,
      breaker: { failureThreshold: 1_000, openMs: 50 },
    },
  })
  const run = await appParts(t.app).sync!.run({ trigger: 'startup' })
  if (!run.ok) throw new Error('initial sync failed')
  const ids = sim.data.listDispatchIds()
  const ownDispatchId = ids[0]!
  const companyId = sim.data.getDispatch(ownDispatchId)!.destinationId!
  const foreignDispatchId = ids.find((id) => sim.data.getDispatch(id)!.destinationId !== companyId)!
  const dispatched = new Set(
    ids
      .map((id) => sim.data.getDispatch(id)!)
      .filter((d) => d.destinationId === companyId)
      .map((d) => d.courseId),
  )
  const freeCourseId = sim.data.listCourseIds().find((id) => !dispatched.has(id))!
  await t.database.db.update(course).set({ isVisible: true, isRequestable: true }).where(eq(course.id, freeCourseId))
  const admin = (await t.loginAs('admin')).headers
  const client = (await t.loginAs('client', { companyId })).headers
  return {
    sim,
    t,
    admin,
    client,
    companyId,
    ownDispatchId,
    foreignDispatchId,
    freeCourseId,
    activity: (action) =>
      t.database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.action, action)))
        .orderBy(desc(activityLog.createdAt), desc(activityLog.id)),
    async mirrorRow(id) {
      const [row] = await t.database.db.select().from(dispatch).where(eq(dispatch.id, id))
      return row
    },
    async close() {
      await t.close()
      await sim.close()
    },
  }
}

/** Every present dispatch of a course+company pair upstream. */
export function upstreamPair(sim: Simulator, companyId: string, courseId: string): string[] {
  return sim.data.listDispatchIds().filter((id) => {
    const d = sim.data.getDispatch(id)!
    return d.destinationId === companyId && d.courseId === courseId
  })
}
