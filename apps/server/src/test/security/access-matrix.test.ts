import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '@portal/shared'
import { buildTestApp, type TestContext } from '../helpers'
import { MARK, forbiddenMarks, seedAccessFixture, type AccessFixture, type Ids } from './access-fixture'
import { ROUTE_RULES, expectedStatuses, type Caller, type IdKind } from './access-rules'

/**
 * OWASP API1/API5 (BOLA, BFLA), ASVS V8: every route the server registers, called by every role
 * and without a token, with an id of the caller's own company, of another company, of nothing
 * (and of a hidden course), checked against docs/product-rules.md §6 and docs/product-decisions.md D7. Every 2xx body is scanned
 * for what that caller must never receive (foreign rows, dispatch tags and notes, locked demo
 * links, hidden courses).
 */
let t: TestContext
let fx: AccessFixture
let stableUsers: Ids
beforeAll(async () => {
  t = await buildTestApp()
  fx = await seedAccessFixture(t)
  stableUsers = await fx.freshUsers()
})
afterAll(async () => t.close())

const CALLERS: Caller[] = ['none', 'client', 'sales', 'internal', 'admin']
const normalise = (url: string) => (url.length > 1 ? url.replace(/\/$/, '') : url)
const ruleKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${normalise(url)}`

function routes() {
  const seen = new Set<string>()
  return t.app.registeredRoutes().filter((r) => {
    const key = `${r.method} ${r.url}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

async function idsFor(resource: string | undefined, caller: Caller): Promise<Ids | null> {
  switch (resource) {
    case 'dispatch':
      return fx.dispatch
    case 'company':
      return fx.company
    case 'course':
      return fx.course
    case 'request':
      return fx.request
    case 'alert':
      return fx.alert
    case 'job':
      return fx.job
    case 'apiKey':
      return fx.apiKey
    case 'webhook':
      return fx.webhook
    case 'webhookFresh':
      return fx.freshWebhooks()
    case 'user':
      // Admin calls may suspend or delete: give them users no later check relies on.
      return caller === 'admin' ? fx.freshUsers() : stableUsers
    default:
      return null
  }
}

describe('access matrix', () => {
  it('has an expectation for every registered route, and no stale one', () => {
    const keys = new Set(routes().map((r) => ruleKey(r.method, r.url)))
    expect(
      [...keys].filter((k) => !(k in ROUTE_RULES)),
      'routes without a rule',
    ).toEqual([])
    expect(
      Object.keys(ROUTE_RULES).filter((k) => !keys.has(k)),
      'rules without a route',
    ).toEqual([])
  })

  it('answers every route, caller and id as docs/product-rules.md §6 and docs/product-decisions.md D7 say, and leaks nothing', async () => {
    const problems: string[] = []
    let calls = 0
    for (const route of routes()) {
      const rule = ROUTE_RULES[ruleKey(route.method, route.url)]
      if (!rule) continue // reported by the test above
      for (const caller of CALLERS) {
        const ids = await idsFor(rule.id, caller)
        const kinds: (IdKind | null)[] = !route.url.includes(':id')
          ? [null]
          : (['own', 'foreign', 'missing', ...(ids?.hidden ? ['hidden' as const] : [])] as IdKind[])
        for (const kind of kinds) {
          const id = kind && ids ? ids[kind] : undefined
          const url = route.url
            .replace(':id', encodeURIComponent(id ?? ''))
            .replace(':deliveryId', '999999')
            .replace('*', 'nothing-here')
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers: caller === 'none' ? {} : fx.headers[caller],
            ...(rule.payload && route.method !== 'GET' && route.method !== 'HEAD'
              ? { payload: rule.payload(kind ?? 'own', fx) }
              : {}),
          })
          calls += 1
          const label = `${route.method} ${url} as ${caller}${kind ? ` (${kind} id)` : ''}`
          const expected = expectedStatuses(rule, caller, kind)
          const success = res.statusCode >= 200 && res.statusCode < 300
          if (expected ? !expected.includes(res.statusCode) : !success) {
            problems.push(
              `${label}: got ${res.statusCode}, expected ${expected?.join('/') ?? '2xx'}: ${res.body.slice(0, 160)}`,
            )
          }
          if (res.statusCode >= 400 && route.method !== 'HEAD' && typeof safeJson(res.body)?.message !== 'string') {
            problems.push(`${label}: error ${res.statusCode} without a JSON message`)
          }
          if (success && caller !== 'none') {
            for (const mark of forbiddenMarks(caller)) {
              if (res.body.includes(mark)) problems.push(`${label}: leaked "${mark}"`)
            }
          }
        }
      }
    }
    expect(problems).toEqual([])
    expect(calls).toBeGreaterThan(300)
    // Several hundred requests, one after another: a limit for a busy 2-core machine, not a timing.
  }, 180_000)
})

describe('the scan above is not vacuous', () => {
  const get = (role: Role, url: string) => t.app.inject({ method: 'GET', url, headers: fx.headers[role] })

  it('a client does receive its own rows and the demo link its processed request unlocks', async () => {
    const list = await get('client', '/api/dispatches')
    expect(list.json().dispatches.map((d: { id: string }) => d.id)).toEqual([fx.dispatch.own])
    const open = await get('client', '/api/courses/sec-course-open/details')
    expect(open.json().demoUrl).toBe(MARK.openDemo)
    const report = await get('client', `/api/reports/dispatch/${fx.dispatch.own}`)
    expect(report.json().registrations.map((r: { learnerEmail: string }) => r.learnerEmail)).toEqual([
      'own.learner@alpha.test',
    ])
  })

  it('admin and internal do receive tags and notes, admins the hidden course', async () => {
    for (const role of ['admin', 'internal'] as const) {
      const body = (await get(role, `/api/dispatches/${fx.dispatch.foreign}`)).json()
      expect(body.tags).toEqual([MARK.dispatchTag])
      expect(body.notes).toBe(MARK.dispatchNote)
    }
    const courses = (await get('admin', '/api/dispatches/courses')).json().courses
    expect(courses.map((c: { id: string }) => c.id)).toContain(MARK.hiddenCourse)
  })
})

function safeJson(body: string): { message?: unknown } | null {
  try {
    return JSON.parse(body) as { message?: unknown }
  } catch {
    return null
  }
}
