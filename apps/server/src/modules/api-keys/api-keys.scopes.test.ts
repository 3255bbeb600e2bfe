import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY_SCOPES, apiKeyScopeOf, can, canGrantScope, type Permission, type Role } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'

/**
 * Every scope against every gated route the server registers: a key with only the route's
 * scope, made by a role that holds the route's permission (an admin's vendor key, or a client's
 * company key for a client's route), passes the gate (no 401 or 403); a key with every other
 * scope is refused with 403, and so is a key whose creator lacks the permission. Routes of no scope (a person's:
 * session, profile, users, single sign-on, keys) are refused to a key holding every scope.
 */
let t: TestContext
const secrets = new Map<string, string>()
const CREATORS = ['admin', 'client'] as const
beforeAll(async () => {
  t = await buildTestApp({ apiKeyRateLimit: { max: 100_000, timeWindowMs: 60_000 } })
  await t.createCompany('scopes-co')
  for (const role of CREATORS) {
    const { headers } = await t.loginAs(role, role === 'client' ? { companyId: 'scopes-co' } : {})
    if (role === 'client') {
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/companies/scopes-co/api-keys',
        headers: (await t.loginAs('admin')).headers,
        payload: { allowed: true },
      })
    }
    const make = async (name: string, scopes: string[]) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers, payload: { name, scopes } })
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201)
      return res.json<{ secret: string }>().secret
    }
    const grantable = API_KEY_SCOPES.filter((s) => canGrantScope(role, s))
    for (const scope of grantable) {
      secrets.set(`${role} ${scope}`, await make(scope, [scope]))
      const rest = grantable.filter((s) => s !== scope)
      if (rest.length > 0) secrets.set(`${role} all-but ${scope}`, await make(`all but ${scope}`, rest))
    }
    secrets.set(`${role} all`, await make('all', grantable))
  }
})
afterAll(async () => t.close())

function gatedRoutes() {
  const seen = new Set<string>()
  return t.app
    .registeredRoutes()
    .filter((r) => !r.public && r.permission && r.method !== 'HEAD')
    .filter((r) => {
      const key = `${r.method} ${r.url}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}

// Past the gate, a made-up id is a 400 or 404: nothing the call could change exists.
const urlOf = (url: string) => url.replace(/:(\w+)/g, '00000000-0000-4000-8000-00000000beef').replace('*', 'x')

describe('API key scopes against the access matrix', () => {
  it('derives one read and/or write scope per permission group, none for a person’s routes', () => {
    expect(API_KEY_SCOPES).toEqual(expect.arrayContaining(['dispatch:read', 'dispatch:write', 'log:read']))
    expect(API_KEY_SCOPES).toEqual(expect.arrayContaining(['report:read', 'learner:read', 'courseRequest:write']))
    for (const personal of ['session', 'profile', 'user', 'sso', 'apiKey', 'activity']) {
      expect(API_KEY_SCOPES.filter((s) => s.startsWith(`${personal}:`))).toEqual([])
    }
  })

  it('lets a key through exactly the routes of its scopes', async () => {
    const problems: string[] = []
    const covered = new Set<string>()
    for (const route of gatedRoutes()) {
      const scope = apiKeyScopeOf(route.permission as Permission)
      const call = (secret: string) =>
        t.app.inject({
          method: route.method as 'GET',
          url: urlOf(route.url),
          headers: { authorization: `Bearer ${secret}` },
          ...(route.method === 'GET' ? {} : { payload: {} }),
        })
      const label = `${route.method} ${route.url} (${route.permission})`
      if (!scope) {
        for (const role of CREATORS) {
          const res = await call(secrets.get(`${role} all`)!)
          if (res.statusCode !== 403)
            problems.push(`${label} with every ${role} scope: ${res.statusCode}, expected 403`)
        }
        continue
      }
      covered.add(scope)
      for (const role of CREATORS as readonly Role[]) {
        const own = secrets.get(`${role} ${scope}`)
        const mayCall = can(role, route.permission as Permission)
        if (own) {
          const res = await call(own)
          const passed = res.statusCode !== 401 && res.statusCode !== 403
          if (passed !== mayCall) problems.push(`${label} with ${role}'s ${scope}: ${res.statusCode}`)
        }
        const others = secrets.get(`${role} all-but ${scope}`)
        if (!others) continue
        const denied = await call(others)
        if (denied.statusCode !== 403) problems.push(`${label} without ${scope}: ${denied.statusCode}, expected 403`)
        else if (!denied.json().message.includes(scope)) problems.push(`${label}: 403 without naming ${scope}`)
      }
    }
    expect(problems).toEqual([])
    // Every scope a route needs was tried both ways.
    expect(covered.size).toBeGreaterThan(10)
  }, 180_000)
})
