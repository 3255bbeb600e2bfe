import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestContext } from '../../test/helpers'

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

describe('routes in the OpenAPI document', () => {
  it('documents each route with its tag, its input bounds and its responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    const op = (path: string, method: string) => doc.paths[path]?.[method]

    const create = op('/api/dispatches/', 'post') // the list's own path, as GET /api/dispatches is documented
    expect(create.tags).toEqual(['dispatches'])
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '502']))
    const conflict = create.responses['409'].content['application/json'].schema
    expect(conflict.required).toEqual(expect.arrayContaining(['message', 'dispatchId']))
    const body = create.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['companyId', 'courseId'])
    expect(body.properties.companyId.maxLength).toBe(200)
    expect(body.properties.tags.maxItems).toBe(50)

    const fulfil = op('/api/course-requests/{id}/fulfil', 'post')
    expect(fulfil.tags).toEqual(['course-requests'])
    expect(fulfil.requestBody.content['application/json'].schema.properties.mode.enum).toEqual(['create', 'add'])
    expect(fulfil.responses['200'].content['application/json'].schema.properties).toHaveProperty('dispatchId')

    for (const path of ['/api/dispatches/{id}/package', '/api/dispatches/packages']) {
      const download = op(path, 'get')
      expect(download.tags, path).toEqual(['dispatches'])
      expect(download.responses['200'].content['application/zip'].schema).toEqual({ type: 'string', format: 'binary' })
      expect(Object.keys(download.responses)).toEqual(expect.arrayContaining(['403', '404', '502']))
    }

    const reset = op('/api/dispatches/{id}/registration-count/reset', 'post')
    expect(reset.tags).toEqual(['dispatches'])
    expect(reset.responses['200'].content['application/json'].schema.properties).toHaveProperty('registrationResetDate')
  })
})
