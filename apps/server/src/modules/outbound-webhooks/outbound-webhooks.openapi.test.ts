import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_TYPES } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'

type Body = { properties: { type: { const: string }; data: { properties: Record<string, unknown> } } }
interface Document {
  openapi: string
  webhooks: Record<
    string,
    { post: { parameters: { name: string }[]; requestBody: { content: { 'application/json': { schema: Body } } } } }
  >
  paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>
}

let t: TestContext
let doc: Document
beforeAll(async () => {
  t = await buildTestApp()
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<Document>()
}, 120_000)
afterAll(async () => t?.close())

describe('OpenAPI document: webhooks', () => {
  it('describes every event body and the signature headers in its webhooks section', () => {
    expect(doc.openapi).toBe('3.1.0')
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type]!.post
      expect(post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      const body = post.requestBody.content['application/json'].schema
      expect(body.properties.type.const).toBe(type)
    }
    const completed = doc.webhooks['registration.completed']!.post.requestBody.content['application/json'].schema
    expect(Object.keys(completed.properties.data.properties)).toEqual(
      expect.arrayContaining(['registrationId', 'dispatchId', 'companyId', 'learner', 'completedAt']),
    )
  })

  it('the subscription routes are not callable with an API key', () => {
    const list = doc.paths['/api/integrations/webhooks/']?.get ?? doc.paths['/api/integrations/webhooks']!.get!
    expect(list.security).toEqual([{ accessToken: [] }])
  })
})
