import { afterAll, expect, it } from 'vitest'
import { buildTestApp, testConfig, type TestContext } from './test/helpers'

let t: TestContext | undefined
afterAll(async () => t?.close())

// The scheduled sync's payload is checked against the sync job when the schedule is made: an app
// with SCORM Cloud credentials and a sync interval builds, so its scheduled runs can run.
it('schedules the sync with a payload the sync job accepts', async () => {
  const scormCloud = { baseUrl: 'http://127.0.0.1:9/api/v2', appId: 'app', secretKey: 'secret' }
  t = await buildTestApp({ config: testConfig({ scormCloud, syncIntervalMinutes: 15 }) })
  const health = await t.app.inject({ method: 'GET', url: '/api/health' })
  expect(health.statusCode).toBe(200)
})
