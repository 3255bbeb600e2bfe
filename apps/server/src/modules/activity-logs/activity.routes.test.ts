import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc } from 'drizzle-orm'
import { activityLog } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

const latest = async () => (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]

describe('POST /api/logs/action', () => {
  it('stores a UI event stamped with the real user and IP, whatever the body claims', async () => {
    const { user, headers } = await t.loginAs('client')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logs/action',
      headers,
      payload: {
        action: 'HELP_BUTTON_CLICKED',
        details: { message: 'Help clicked' },
        userId: 'someone-else',
        ipAddress: '1.2.3.4',
      },
      remoteAddress: '10.1.2.3',
    })
    expect(res.statusCode).toBe(201)
    expect(await latest()).toMatchObject({
      action: 'HELP_BUTTON_CLICKED',
      userId: user.id,
      actorEmail: user.email,
      ipAddress: '10.1.2.3',
      details: { message: 'Help clicked' },
    })
  })

  it('refuses server-only actions such as LOGIN_SUCCESS or ADMIN_USER_DELETED', async () => {
    const { headers } = await t.loginAs('admin')
    for (const action of ['LOGIN_SUCCESS', 'ADMIN_USER_DELETED', 'TOKEN_REUSE_DETECTED', 'NOT_AN_ACTION']) {
      const before = (await latest())?.id
      const res = await t.app.inject({ method: 'POST', url: '/api/logs/action', headers, payload: { action } })
      expect(res.statusCode, action).toBe(400)
      expect((await latest())?.id).toBe(before)
    }
  })

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/logs/action', payload: { action: 'PAGE_VIEWED' } })
    expect(res.statusCode).toBe(401)
  })
})

describe('POST /api/logs/navigation', () => {
  it('stores NAVIGATION_LOGGED with the pathname for every role', async () => {
    for (const role of ['admin', 'internal', 'sales', 'client'] as const) {
      const { user, headers } = await t.loginAs(role)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/logs/navigation',
        headers,
        payload: { pathname: '/courses' },
      })
      expect(res.statusCode).toBe(201)
      expect(await latest()).toMatchObject({
        action: 'NAVIGATION_LOGGED',
        userId: user.id,
        details: { pathname: '/courses' },
      })
    }
  })

  it('refuses a pathname that is not a path, and no token', async () => {
    const { headers } = await t.loginAs('sales')
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/logs/navigation',
      headers,
      payload: { pathname: 'javascript:alert(1)' },
    })
    expect(bad.statusCode).toBe(400)
    const anon = await t.app.inject({ method: 'POST', url: '/api/logs/navigation', payload: { pathname: '/x' } })
    expect(anon.statusCode).toBe(401)
  })
})
