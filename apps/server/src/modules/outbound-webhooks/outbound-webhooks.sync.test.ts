import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { appParts } from '../../app'
import { buildTestApp, testConfig, type TestContext } from '../../test/helpers'
import { startTestSimulator } from '../sync/sync.test-support'
import { outboundWebhooksOf } from './outbound-webhooks.parts'
import { startReceiver, type Receiver } from './outbound-webhooks.test-support'

/**
 * A sync run against the simulator: a dispatch gone upstream and a registration completed
 * upstream reach a vendor subscription as dispatch.removed and registration.completed, signed.
 */
let sim: Simulator
let t: TestContext
let receiver: Receiver
beforeAll(async () => {
  sim = await startTestSimulator()
  t = await buildTestApp({
    config: testConfig({ scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey } }),
    webhooks: { allowPrivateTargets: true, retryDelaysMs: [0, 0], timeoutMs: 3_000 },
  })
  expect((await appParts(t.app).sync!.run({ trigger: 'startup' })).ok).toBe(true)
  receiver = await startReceiver()
})
afterAll(async () => {
  await t.close()
  await sim.close()
  await receiver.close()
})

describe('events from a sync run', () => {
  it('a dispatch removed upstream and a registration completed upstream', async () => {
    const regId = sim.data.registrationAt(5)!.id
    sim.touchRegistration(regId, { registrationCompletion: 'INCOMPLETE' })
    expect((await appParts(t.app).sync!.run({ trigger: 'schedule' })).ok).toBe(true)

    const admin = (await t.loginAs('admin')).headers
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/webhooks',
      headers: admin,
      payload: { url: receiver.url, events: ['dispatch.removed', 'registration.completed'] },
    })
    expect(res.statusCode).toBe(201)
    receiver.useSecret(res.json().secret)

    const [gone] = sim.data.listDispatchIds().filter((id) => id !== sim.data.registrationAt(5)!.dispatchId)
    sim.removeDispatch(gone!)
    sim.touchRegistration(regId, { registrationCompletion: 'COMPLETED', registrationSuccess: 'PASSED' })
    expect((await appParts(t.app).sync!.run({ trigger: 'schedule' })).ok).toBe(true)
    await outboundWebhooksOf(t.app).deliverNow()

    const removed = receiver.accepted.filter((e) => e.type === 'dispatch.removed')
    expect(removed.map((e) => e.data.dispatchId)).toEqual([gone])
    const completed = receiver.accepted.filter((e) => e.type === 'registration.completed')
    expect(completed.map((e) => e.data.registrationId)).toEqual([regId])
    expect(completed[0]!.data).toMatchObject({ completionStatus: 'completed', successStatus: 'passed' })
  })
})
