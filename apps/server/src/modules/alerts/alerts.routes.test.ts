import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildTestApp, runDueJobs, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { setDispatch } from './alerts.test-support'
import { appParts } from '../../app'

/** Alert routes: permissions (allowed and denied), client scope in the SQL, bounded input. */
let t: TestContext
type Headers = { 'x-auth-token': string }
let admin: Headers, sales: Headers, internal: Headers, clientA: Headers, clientB: Headers

const call = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })

beforeAll(async () => {
  t = await buildTestApp({ alerts: { timers: false } })
  await insertDispatches(t.database.db, [
    { id: 'ra-1', destinationId: 'co-ra', destinationName: 'Route A', registrationCount: 9, registrationCap: 10 },
    { id: 'rb-1', destinationId: 'co-rb', destinationName: 'Route B', registrationCount: 10, registrationCap: 10 },
  ])
  admin = (await t.loginAs('admin')).headers
  sales = (await t.loginAs('sales')).headers
  internal = (await t.loginAs('internal')).headers
  clientA = (await t.loginAs('client', { companyId: 'co-ra' })).headers
  clientB = (await t.loginAs('client', { companyId: 'co-rb' })).headers
  await appParts(t.app).alerts.evaluate()
})
afterAll(async () => t?.close())

describe('GET /api/notifications and marking read', () => {
  it('staff see every alert, newest first, with the unread count', async () => {
    for (const headers of [admin, sales, internal]) {
      const res = await call('GET', '/api/notifications', headers)
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body.items.map((n: { dispatchId: string }) => n.dispatchId)).toEqual(['rb-1', 'ra-1'])
      expect(body.unreadCount).toBe(2)
      expect(body.items[0]).toMatchObject({ kind: 'usage', level: 100, read: false, companyName: 'Route B' })
      expect(body.items[0].message).toBe(
        'License cap reached, 100% used (threshold 100%): Course rb-1 (Route B) uses 10 of 10 licenses',
      )
    }
  })

  it("a client sees only its own company's alerts and gets 404 for another company's", async () => {
    const mine = (await call('GET', '/api/notifications', clientA)).json()
    expect(mine.items.map((n: { dispatchId: string }) => n.dispatchId)).toEqual(['ra-1'])
    expect(mine.unreadCount).toBe(1)
    const theirs = (await call('GET', '/api/notifications', clientB)).json()
    const foreignId = theirs.items[0].id
    const denied = await call('POST', `/api/notifications/${foreignId}/read`, clientA)
    expect(denied.statusCode).toBe(404)
    expect(denied.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Notification not found.' })
    // Nothing changed for client B.
    expect((await call('GET', '/api/notifications', clientB)).json().unreadCount).toBe(1)
  })

  it('marks one read, then all read, per user', async () => {
    const list = (await call('GET', '/api/notifications', sales)).json()
    const read = await call('POST', `/api/notifications/${list.items[1].id}/read`, sales)
    expect(read.json()).toEqual({ unreadCount: 1 })
    const after = (await call('GET', '/api/notifications', sales)).json()
    expect(after.items.map((n: { read: boolean }) => n.read)).toEqual([false, true])
    expect((await call('POST', '/api/notifications/read-all', sales)).json()).toEqual({ unreadCount: 0 })
    // Another user's marks are untouched.
    expect((await call('GET', '/api/notifications', internal)).json().unreadCount).toBe(2)
    // A new alert after read-all is unread.
    await setDispatch(t.database.db, 'ra-1', { enabled: false })
    await appParts(t.app).alerts.evaluate()
    expect((await call('GET', '/api/notifications', sales)).json().unreadCount).toBe(1)
  })

  it('pages with limit and before, and refuses unbounded input', async () => {
    const first = (await call('GET', '/api/notifications?limit=1', admin)).json()
    expect(first.items).toHaveLength(1)
    const next = (await call('GET', `/api/notifications?limit=1&before=${first.nextBefore}`, admin)).json()
    expect(next.items[0].id).toBeLessThan(first.items[0].id)
    expect((await call('GET', '/api/notifications?limit=101', admin)).statusCode).toBe(400)
    expect((await call('POST', '/api/notifications/abc/read', admin)).statusCode).toBe(400)
    expect((await call('POST', '/api/notifications/999999/read', admin)).statusCode).toBe(404)
  })

  it('unauthenticated callers get 401', async () => {
    expect((await call('GET', '/api/notifications', {})).statusCode).toBe(401)
    expect((await call('POST', '/api/notifications/read-all', {})).statusCode).toBe(401)
  })
})

describe('dashboard flags', () => {
  it('"Near cap" for dispatches at 90 % of their cap or more, scoped to the client', async () => {
    const staff = (await call('GET', '/api/notifications/dispatch-flags?ids=ra-1&ids=rb-1', admin)).json()
    expect(staff).toEqual({ nearCap: ['ra-1', 'rb-1'], expiresSoon: [] })
    const client = (await call('GET', '/api/notifications/dispatch-flags?ids=ra-1&ids=rb-1', clientA)).json()
    expect(client).toEqual({ nearCap: ['ra-1'], expiresSoon: [] })
    const many = Array.from({ length: 201 }, (_, i) => `ids=x${i}`).join('&')
    expect((await call('GET', `/api/notifications/dispatch-flags?${many}`, admin)).statusCode).toBe(400)
  })
})

describe('alert settings (admin)', () => {
  it('reads and writes the global thresholds; other roles are refused', async () => {
    expect((await call('GET', '/api/admin/alert-settings', admin)).json()).toEqual({
      usageThresholds: [80, 90, 100],
      expiryDays: [0, 7, 30],
    })
    const put = await call('PUT', '/api/admin/alert-settings', admin, { usageThresholds: [95, 75], expiryDays: [14] })
    expect(put.json()).toEqual({ usageThresholds: [75, 95], expiryDays: [14] })
    for (const headers of [sales, internal, clientA]) {
      expect((await call('GET', '/api/admin/alert-settings', headers)).statusCode).toBe(403)
      const denied = await call('PUT', '/api/admin/alert-settings', headers, { usageThresholds: [1], expiryDays: [] })
      expect(denied.statusCode).toBe(403)
    }
    expect((await call('GET', '/api/admin/alert-settings', admin)).json().usageThresholds).toEqual([75, 95])
  })

  it('refuses out-of-bound lists with a 400 naming the field, changing nothing', async () => {
    for (const body of [
      { usageThresholds: [0], expiryDays: [] },
      { usageThresholds: [80], expiryDays: [366] },
      { usageThresholds: Array.from({ length: 11 }, (_, i) => i + 1), expiryDays: [] },
      { usageThresholds: [80, 80], expiryDays: [] },
      { usageThresholds: [80] },
    ]) {
      const res = await call('PUT', '/api/admin/alert-settings', admin, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
    expect((await call('GET', '/api/admin/alert-settings', admin)).json().usageThresholds).toEqual([75, 95])
  })

  it("overrides a company's thresholds; the next evaluation uses them; unknown companies are 404", async () => {
    expect((await call('GET', '/api/admin/companies/co-rb/alert-settings', admin)).json()).toMatchObject({
      overridden: false,
    })
    const put = await call('PUT', '/api/admin/companies/co-rb/alert-settings', admin, {
      usageThresholds: [50],
      expiryDays: [],
    })
    expect(put.json()).toEqual({ usageThresholds: [50], expiryDays: [], overridden: true })
    expect((await call('GET', '/api/admin/companies/missing-co/alert-settings', admin)).statusCode).toBe(404)
    const missing = await call('PUT', '/api/admin/companies/missing-co/alert-settings', admin, {
      usageThresholds: [50],
      expiryDays: [],
    })
    expect(missing.statusCode).toBe(404)
    expect((await call('GET', '/api/admin/companies/co-rb/alert-settings', sales)).statusCode).toBe(403)
    expect(
      (
        await call('PUT', '/api/admin/companies/co-rb/alert-settings', clientB, {
          usageThresholds: [50],
          expiryDays: [],
        })
      ).statusCode,
    ).toBe(403)
    await runDueJobs(t.app)
    const [state] = (
      (await t.database.db.execute(
        sql`select level from alert_state where dispatch_id = 'rb-1' and kind = 'usage'`,
      )) as unknown as {
        rows: { level: number }[]
      }
    ).rows
    expect(state?.level).toBe(50)
  })
})

describe('GET /api/admin/outbox', () => {
  it('lists queued mails to admins (paged, newest first); others are refused', async () => {
    const res = await call('GET', '/api/admin/outbox?limit=5', admin)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.smtpConfigured).toBe(false)
    expect(body.totalItems).toBeGreaterThan(0)
    expect(body.items[0]).toMatchObject({ kind: 'alert', status: 'pending', attempts: 0 })
    expect(body.items[0].textBody).toContain('http://portal.example.test/dispatches/')
    for (const headers of [sales, internal, clientA])
      expect((await call('GET', '/api/admin/outbox', headers)).statusCode).toBe(403)
    expect((await call('GET', '/api/admin/outbox?limit=1000', admin)).statusCode).toBe(400)
  })
})

describe('/api/profile/preferences', () => {
  it('every role reads its defaults (clients opt in to alert mails) and saves its own', async () => {
    expect((await call('GET', '/api/profile/preferences', clientA)).json()).toEqual({
      alertMails: false,
      weeklyDigest: false,
      timeZone: 'UTC',
      reportFrequency: 'off',
      reportHour: 8,
      statementMails: false,
    })
    expect((await call('GET', '/api/profile/preferences', sales)).json().alertMails).toBe(true)
    const body = {
      alertMails: true,
      weeklyDigest: true,
      timeZone: 'Europe/Paris',
      reportFrequency: 'monthly',
      reportHour: 7,
    }
    // Left out of a save, the statement mail choice stays as it was (off).
    const saved = { ...body, statementMails: false }
    expect((await call('PUT', '/api/profile/preferences', clientA, body)).json()).toEqual(saved)
    expect((await call('GET', '/api/profile/preferences', clientA)).json()).toEqual(saved)
    const optedIn = { ...body, statementMails: true }
    expect((await call('PUT', '/api/profile/preferences', clientA, optedIn)).json()).toEqual(optedIn)
    expect((await call('PUT', '/api/profile/preferences', clientA, body)).json()).toEqual(optedIn)
    expect((await call('GET', '/api/profile/preferences', clientB)).json().alertMails).toBe(false)
    expect((await call('GET', '/api/profile/preferences', {})).statusCode).toBe(401)
  })

  it('refuses an unknown time zone and out-of-bound values with a 400 naming the field', async () => {
    const base = { alertMails: true, weeklyDigest: false, timeZone: 'UTC', reportFrequency: 'off', reportHour: 8 }
    const zone = await call('PUT', '/api/profile/preferences', sales, { ...base, timeZone: 'Mars/Olympus' })
    expect(zone.statusCode).toBe(400)
    expect(zone.json().details).toEqual([{ field: 'timeZone', message: expect.any(String) }])
    for (const bad of [{ reportHour: 24 }, { reportFrequency: 'daily' }, { timeZone: 'x'.repeat(65) }]) {
      expect((await call('PUT', '/api/profile/preferences', sales, { ...base, ...bad })).statusCode).toBe(400)
    }
  })
})

describe('a lowered threshold and "Use the global thresholds"', () => {
  const flags = async (id: string) =>
    (await call('GET', `/api/notifications/dispatch-flags?ids=${id}`, admin)).json() as { nearCap: string[] }
  const audits = async () =>
    (
      (await t.database.db.execute(
        sql`select details from activity_log where action = 'ALERT_SETTINGS_UPDATED' order by id`,
      )) as unknown as { rows: { details: Record<string, unknown> }[] }
    ).rows.map((r) => r.details)

  it('names the usage and the threshold it crossed; 31 of 100 is not "Near cap"', async () => {
    await insertDispatches(t.database.db, [
      { id: 'rc-1', destinationId: 'co-rc', destinationName: 'Route C', registrationCount: 31, registrationCap: 100 },
    ])
    const put = await call('PUT', '/api/admin/companies/co-rc/alert-settings', admin, {
      usageThresholds: [2],
      expiryDays: [],
    })
    expect(put.statusCode, put.body).toBe(200)
    await runDueJobs(t.app)
    const items = (await call('GET', '/api/notifications?limit=100', admin)).json().items as {
      dispatchId: string
      message: string
    }[]
    expect(items.find((n) => n.dispatchId === 'rc-1')?.message).toBe(
      '31% of licenses used (threshold 2%): Course rc-1 (Route C) uses 31 of 100 licenses',
    )
    expect((await flags('rc-1')).nearCap).toEqual([])
    await setDispatch(t.database.db, 'rc-1', { registrationCount: 90 })
    expect((await flags('rc-1')).nearCap).toEqual(['rc-1'])
  })

  it('every threshold change is audited with before and after', async () => {
    const all = await audits()
    expect(all).toContainEqual({
      scope: 'global',
      before: { usageThresholds: [80, 90, 100], expiryDays: [0, 7, 30] },
      after: { usageThresholds: [75, 95], expiryDays: [14] },
    })
    expect(all).toContainEqual({
      scope: 'company',
      companyId: 'co-rc',
      before: 'global',
      after: { usageThresholds: [2], expiryDays: [] },
    })
  })

  it('DELETE removes the override (audited), answers the global values; others are refused, unknown is 404', async () => {
    for (const headers of [sales, internal, clientA]) {
      expect((await call('DELETE', '/api/admin/companies/co-rc/alert-settings', headers)).statusCode).toBe(403)
    }
    expect((await call('GET', '/api/admin/companies/co-rc/alert-settings', admin)).json().overridden).toBe(true)
    const res = await call('DELETE', '/api/admin/companies/co-rc/alert-settings', admin)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ usageThresholds: [75, 95], expiryDays: [14], overridden: false })
    expect((await call('GET', '/api/admin/companies/co-rc/alert-settings', admin)).json().overridden).toBe(false)
    expect((await audits()).at(-1)).toEqual({
      scope: 'company',
      companyId: 'co-rc',
      before: { usageThresholds: [2], expiryDays: [] },
      after: 'global',
    })
    // Again: nothing to remove, nothing audited.
    const count = (await audits()).length
    expect((await call('DELETE', '/api/admin/companies/co-rc/alert-settings', admin)).statusCode).toBe(200)
    expect(await audits()).toHaveLength(count)
    expect((await call('DELETE', '/api/admin/companies/missing-co/alert-settings', admin)).statusCode).toBe(404)
  })
})
