import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { sql } from 'drizzle-orm'
import type { DispatchHistoryResponse } from '@portal/shared'
import { providerApp, type Headers, type ProviderApp } from './dispatch-actions.test-support'

let p: ProviderApp

/** Licence history of portal edits: the real update and reset paths against the simulator. */
beforeAll(async () => {
  p = await providerApp()
})
afterAll(async () => {
  await p.close()
})

const history = async (id: string, headers: Headers, query = '') =>
  p.t.app.inject({ method: 'GET', url: `/api/dispatches/${id}/history${query}`, headers })
const entries = async (id: string, headers: Headers = p.admin) => {
  const res = await history(id, headers, '?limit=100')
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as DispatchHistoryResponse).entries
}
const put = (id: string, payload: Record<string, unknown>) =>
  p.t.app.inject({ method: 'PUT', url: `/api/dispatches/${id}`, headers: p.admin, payload })

describe('dispatch licence history from portal edits', () => {
  it('starts with the dispatch as the sync first found it upstream', async () => {
    const rows = await entries(p.ownDispatchId)
    expect(rows.at(-1)).toMatchObject({ kind: 'created', source: 'upstream', actor: { kind: 'sync' } })
  })

  it('records a cap change with the admin, old and new cap and the counter before and after', async () => {
    const before = (await p.mirrorRow(p.ownDispatchId))!
    const res = await put(p.ownDispatchId, { registrationCap: before.registrationCap + 25 })
    expect(res.statusCode, res.body).toBe(200)
    const [latest] = await entries(p.ownDispatchId)
    expect(latest).toMatchObject({
      kind: 'cap',
      oldValue: String(before.registrationCap),
      newValue: String(before.registrationCap + 25),
      capBefore: before.registrationCap,
      capAfter: before.registrationCap + 25,
      countBefore: before.registrationCount,
      countAfter: before.registrationCount,
      source: 'portal',
      actor: { kind: 'user' },
    })
    expect(latest!.actor.email).toMatch(/^admin-/)
  })

  it('records expiry and enabled changes, newest first', async () => {
    expect((await put(p.ownDispatchId, { expirationDate: '2031-05-01' })).statusCode).toBe(200)
    expect((await put(p.ownDispatchId, { enabled: false })).statusCode).toBe(200)
    const [enabled, expiry] = await entries(p.ownDispatchId)
    expect(enabled).toMatchObject({ kind: 'enabled', oldValue: 'true', newValue: 'false', source: 'portal' })
    expect(expiry).toMatchObject({ kind: 'expiry', newValue: '2031-05-01T00:00:00.000Z', source: 'portal' })
    expect((await put(p.ownDispatchId, { enabled: true })).statusCode).toBe(200)
  })

  it('records a counter reset with the count before and after', async () => {
    const id = p.ownDispatchId
    p.sim.touchDispatch(id, { registrationCount: 7 })
    await p.t.database.db.execute(sql`update dispatch set registration_count = 7 where id = ${id}`)
    const res = await p.t.app.inject({
      method: 'POST',
      url: `/api/dispatches/${id}/registration-count/reset`,
      headers: p.admin,
    })
    expect(res.statusCode, res.body).toBe(200)
    const [reset] = await entries(id)
    expect(reset).toMatchObject({ kind: 'count_reset', countBefore: 7, countAfter: 0, source: 'portal' })
    expect(reset!.actor.email).toMatch(/^admin-/)
  })

  it('records a change made with an API key under the key', async () => {
    const made = await p.t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: p.admin,
      payload: { name: 'Renewals', scopes: ['dispatch:read', 'dispatch:write'] },
    })
    expect(made.statusCode, made.body).toBe(201)
    const { key, secret } = made.json() as { key: { id: string; prefix: string }; secret: string }
    const res = await p.t.app.inject({
      method: 'PUT',
      url: `/api/dispatches/${p.ownDispatchId}`,
      headers: { authorization: `Bearer ${secret}` },
      payload: { expirationDate: '2032-12-31' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const [latest] = await entries(p.ownDispatchId)
    expect(latest).toMatchObject({ kind: 'expiry', source: 'portal', actor: { kind: 'apiKey', id: key.id } })
    expect(latest!.actor.label).toContain(`API key "Renewals" (${key.prefix})`)
  })

  it('pages newest first with `before`', async () => {
    const first = (await history(p.ownDispatchId, p.admin, '?limit=2')).json() as DispatchHistoryResponse
    expect(first.entries).toHaveLength(2)
    expect(first.nextBefore).toBe(first.entries[1]!.id)
    const next = (await history(p.ownDispatchId, p.admin, `?limit=2&before=${first.nextBefore}`)).json()
    expect((next as DispatchHistoryResponse).entries[0]!.id).toBeLessThan(first.nextBefore!)
  })
})

describe('who reads the history', () => {
  it('lets a client read its own company dispatch history and every staff role read any', async () => {
    expect((await entries(p.ownDispatchId, p.client)).length).toBeGreaterThan(1)
    for (const role of ['internal', 'sales'] as const) {
      const headers = (await p.t.loginAs(role)).headers
      expect((await history(p.foreignDispatchId, headers)).statusCode).toBe(200)
    }
  })

  it("answers 404 to a client for another company's dispatch, its export too, and 401 without a session", async () => {
    const res = await history(p.foreignDispatchId, p.client)
    expect(res.statusCode).toBe(404)
    const file = await p.t.app.inject({
      method: 'GET',
      url: `/api/dispatches/${p.foreignDispatchId}/history/export?format=csv`,
      headers: p.client,
    })
    expect(file.statusCode).toBe(404)
    expect((await history(p.ownDispatchId, {})).statusCode).toBe(401)
  })
})

describe('history export', () => {
  const download = (format: string, headers = p.admin) =>
    p.t.app.inject({
      method: 'GET',
      url: `/api/dispatches/${p.ownDispatchId}/history/export?format=${format}`,
      headers,
    })

  it('exports every row as CSV, dated yyyy-MM-dd in its name, with the actor and the source', async () => {
    const res = await download('csv', p.client)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/licence history \d{4}-\d{2}-\d{2}\.csv"$/)
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(lines[0]).toBe(
      'Date,Change,Old Value,New Value,Registrations Before,Registrations After,Cap After,Source,By,By Email',
    )
    expect(lines.length - 1).toBe((await entries(p.ownDispatchId)).length)
    expect(lines[1]).toContain('Expiry changed,2031-05-01,2032-12-31')
    expect(lines[1]).toContain('Portal,"API key ""Renewals""')
    expect(lines.some((l) => l.includes('Registration counter reset,7,0,7,0'))).toBe(true)
    expect(lines.some((l) => l.includes('Expiry changed,None,2031-05-01'))).toBe(true)
    expect(lines.at(-1)).toContain('Found upstream by the sync')
  })

  it('exports the same rows as an .xlsx workbook', async () => {
    const res = await download('xlsx')
    expect(res.statusCode).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]!
    expect(sheet.getRow(1).getCell(2).value).toBe('Change')
    expect(sheet.getRow(2).getCell(2).value).toBe('Expiry changed')
    expect(sheet.getRow(2).getCell(4).value).toBe('2032-12-31')
    expect(sheet.rowCount - 1).toBe((await entries(p.ownDispatchId)).length)
  })
})
