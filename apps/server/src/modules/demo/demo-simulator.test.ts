import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig } from '../../test/helpers'
import { startDemoSimulator, type DemoSimulator } from './demo-simulator'

/** Demo mode's data ends the day the server starts, so the charts' recent months are filled. */
const NOW = Date.parse('2027-04-10T15:30:00Z')
const DAY = 86_400_000

let simulator: DemoSimulator
let get: (query: string) => Promise<{ registrations: { createdDate: string }[]; more?: string }>

beforeAll(async () => {
  const started = await startDemoSimulator(testConfig({ port: 0 }), () => NOW)
  simulator = started.simulator
  const { appId, secretKey, baseUrl } = started.config.scormCloud!
  const authorization = `Basic ${Buffer.from(`${appId}:${secretKey}`).toString('base64')}`
  get = async (query) => {
    const res = await fetch(`${baseUrl}/registrations?${query}`, { headers: { authorization } })
    expect(res.status).toBe(200)
    return (await res.json()) as { registrations: { createdDate: string }[]; more?: string }
  }
})
afterAll(async () => simulator.close())

describe('the demo simulator', () => {
  it('has registrations in the last days before the start, none after its day began', async () => {
    const recent = await get(`datetimeFilter=created&since=${new Date(NOW - 3 * DAY).toISOString()}`)
    expect(recent.registrations.length).toBeGreaterThan(0)
    const today = await get('datetimeFilter=created&since=2027-04-10T00:00:00.001Z')
    expect(today.registrations).toEqual([])
  })

  it('has registrations in each of the 12 months up to the start', async () => {
    for (let i = 0; i < 12; i++) {
      const since = new Date(Date.UTC(2027, 3 - i, 1))
      const until = new Date(Date.UTC(2027, 4 - i, 1) - 1)
      const page = await get(`datetimeFilter=created&since=${since.toISOString()}&until=${until.toISOString()}`)
      expect(page.registrations.length, `registrations in ${since.toISOString().slice(0, 7)}`).toBeGreaterThan(0)
    }
  })
})
