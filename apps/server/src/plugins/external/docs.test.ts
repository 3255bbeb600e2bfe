import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../lib/file-response'
import { buildTestApp, type TestContext } from '../../test/helpers'

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>
interface Document {
  paths: Record<string, Record<string, { responses: Responses }>>
}

let t: TestContext
let doc: Document

beforeAll(async () => {
  t = await buildTestApp()
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
  expect(res.statusCode, res.body).toBe(200)
  doc = res.json<Document>()
}, 120_000)
afterAll(async () => t?.close())

const responsesOf = (path: string) => doc.paths[path]!.get!.responses
const binary = { schema: { type: 'string', format: 'binary' } }

/** The file answers declare what they send, not the application/json of a JSON route. */
describe('OpenAPI document: file answers', () => {
  it.each([
    ['/api/reports/dispatch/{id}/export', [CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE]],
    ['/api/learners/export', [CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE]],
    ['/api/logs/export.csv', [CSV_MEDIA_TYPE]],
  ])('%s: its 200 is a binary file of its media types; its errors stay JSON', (path, types) => {
    const responses = responsesOf(path)
    expect(responses['200']!.content).toEqual(Object.fromEntries(types.map((type) => [type, binary])))
    expect(Object.keys(responses['400']!.content!)).toEqual(['application/json'])
  })

  it('the media types are the real ones', () => {
    expect([CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE]).toEqual([
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ])
  })
})
