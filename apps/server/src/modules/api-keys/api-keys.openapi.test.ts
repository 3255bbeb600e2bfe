import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestContext } from '../../test/helpers'

type Operation = { security?: Record<string, string[]>[]; description?: string }
interface Document {
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> }
  paths: Record<string, Record<string, Operation>>
}

let t: TestContext
let doc: Document
beforeAll(async () => {
  t = await buildTestApp()
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<Document>()
}, 120_000)
afterAll(async () => t?.close())

describe('OpenAPI document: API keys', () => {
  it('declares the bearer scheme', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it("names each gated route's scope, and none on a person's routes", () => {
    const dispatches = doc.paths['/api/dispatches/']?.get ?? doc.paths['/api/dispatches']!.get!
    expect(dispatches.security).toEqual([{ accessToken: [] }, { apiKey: ['dispatch:read'] }])
    expect(dispatches.description).toContain('API key scope: `dispatch:read`')
    const logs = doc.paths['/api/logs/']?.get ?? doc.paths['/api/logs']!.get!
    expect(logs.security).toEqual([{ accessToken: [] }, { apiKey: ['log:read'] }])
    const keys = doc.paths['/api/api-keys/']?.get ?? doc.paths['/api/api-keys']!.get!
    expect(keys.security).toEqual([{ accessToken: [] }])
    expect(keys.description).toContain('Not callable with an API key')
  })
})
