import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestContext } from '../../test/helpers'

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

describe('delivery routes in the OpenAPI document', () => {
  it('documents each with its tag, body and responses; the LTI answer has no secret', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    const op = (path: string, method: string) => doc.paths[path]?.[method]
    for (const [path, method] of [
      ['/api/companies/{id}/delivery', 'get'],
      ['/api/companies/{id}/delivery', 'put'],
      ['/api/dispatches/{id}/delivery', 'get'],
      ['/api/dispatches/{id}/delivery', 'put'],
      ['/api/dispatches/{id}/lti', 'get'],
      ['/api/dispatches/{id}/lti/secret', 'post'],
    ] as const) {
      const operation = op(path, method)
      expect(operation?.tags, `${method} ${path}`).toEqual(['delivery'])
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403', '404']))
    }
    const company = op('/api/companies/{id}/delivery', 'put').requestBody.content['application/json'].schema
    expect(Object.keys(company.properties)).toEqual(['launchAuth', 'instanced', 'hashUserInfo', 'cssUrl'])
    const lti = op('/api/dispatches/{id}/lti', 'get').responses['200'].content['application/json'].schema
    expect(JSON.stringify(lti)).not.toContain('sharedSecret')
    const secret = op('/api/dispatches/{id}/lti/secret', 'post').responses['200'].content['application/json'].schema
    expect(secret.properties).toHaveProperty('sharedSecret')
  })
})
