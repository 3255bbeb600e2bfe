import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import type { Company, CompanyDetail } from '@portal/shared'
import { activityLog, appUser, company, courseRequest, syncRun } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertCompany, insertDispatches } from '../dispatches/dispatches.test-data'
import { createSyncRepository } from '../sync/sync.repository'
import { launchAuthColumns } from '../delivery/launch-auth'

let t: TestContext
let admin: { 'x-auth-token': string }
let sales: { 'x-auth-token': string }
let salesUser: { id: string; email: string }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  const seller = await t.loginAs('sales')
  sales = seller.headers
  salesUser = seller.user
  const db = t.database.db
  await insertCompany(db, 'co-alpha', 'Alpha Learning')
  await insertCompany(db, 'co-bravo', 'bravo Training')
  await insertCompany(db, 'co-gone', 'Gone Corp', new Date())
  await db.update(company).set({ accountManagerId: salesUser.id }).where(eq(company.id, 'co-alpha'))
  await t.createUser('client', { companyId: 'co-alpha', name: 'Cleo Client', email: 'cleo@alpha.test' })
  await t.createUser('client', { companyId: 'co-alpha', email: 'carl@alpha.test' })
  await insertDispatches(db, [
    {
      id: 'disp-1',
      destinationId: 'co-alpha',
      courseId: 'c-1',
      courseTitle: 'Safety',
      registrationCount: 7,
      registrationCap: 10,
      expirationDate: new Date('2027-01-31T00:00:00.000Z'),
    },
    { id: 'disp-2', destinationId: 'co-alpha', courseId: 'c-2', courseTitle: 'Ethics', registrationCount: 3 },
    { id: 'disp-3', destinationId: 'co-alpha', courseId: 'c-3', courseTitle: 'Removed', removedAt: new Date() },
    { id: 'disp-4', destinationId: 'co-bravo', courseId: 'c-1', courseTitle: 'Safety' },
  ])
  await db.insert(courseRequest).values({
    courseId: 'c-2',
    courseTitle: 'Ethics',
    companyId: 'co-alpha',
    requestorName: 'Cleo Client',
    requestorEmail: 'cleo@alpha.test',
    licenses: 5,
    createdAt: new Date('2026-03-04T05:06:07.000Z'),
  })
})
afterAll(async () => t.close())

type Method = 'GET' | 'PUT'
const call = (method: Method, url: string, headers: Record<string, string> = admin, payload?: object) =>
  t.app.inject({ method, url: `/api/admin/companies${url}`, headers, ...(payload ? { payload } : {}) })
const latestLog = async () =>
  (await t.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1))[0]!
const stored = async (id: string) => (await t.database.db.select().from(company).where(eq(company.id, id)))[0]!

describe('access', () => {
  it('lets admin and sales read; only admin changes and syncs; client and internal get 403; no token 401', async () => {
    expect((await call('GET', '')).statusCode).toBe(200)
    expect((await call('GET', '', sales)).statusCode).toBe(200)
    expect((await call('GET', '/co-alpha', sales)).statusCode).toBe(200)
    expect((await call('PUT', '/co-alpha', sales, { name: 'Hijacked' })).statusCode).toBe(403)
    expect((await call('GET', '/sync', sales)).statusCode).toBe(403)
    // A client of the very company asked for is refused too.
    for (const [role, companyId] of [
      ['client', null],
      ['client', 'co-bravo'],
      ['internal', null],
    ] as const) {
      const { headers } = await t.loginAs(role, { companyId })
      for (const [method, url, body] of [
        ['GET', '', undefined],
        ['GET', '/co-alpha', undefined],
        ['PUT', '/co-alpha', { name: 'Hijacked' }],
        ['GET', '/co-bravo', undefined],
        ['PUT', '/co-bravo', { name: 'Hijacked' }],
        ['GET', '/sync', undefined],
      ] as const) {
        expect((await call(method, url, headers, body)).statusCode, `${role} ${companyId} ${method} ${url}`).toBe(403)
      }
    }
    for (const [method, url] of [
      ['GET', ''],
      ['GET', '/co-alpha'],
      ['PUT', '/co-alpha'],
    ] as const) {
      expect((await t.app.inject({ method, url: `/api/admin/companies${url}` })).statusCode).toBe(401)
    }
    expect((await stored('co-alpha')).displayName).toBeNull()
    expect((await stored('co-bravo')).displayName).toBeNull()
  })
})

describe('GET /api/admin/companies', () => {
  it('lists present companies by name with counts, the account manager for admins only', async () => {
    const body = (await call('GET', '')).json<Company[]>()
    expect(body.map((c) => c.id)).toEqual(['co-alpha', 'co-bravo'])
    expect(body[0]).toEqual({
      id: 'co-alpha',
      name: 'Alpha Learning',
      accountManagerId: salesUser.id,
      accountManagerName: salesUser.email.split('@')[0],
      accountManagerEmail: salesUser.email,
      counts: { users: 2, courseRequests: 1, dispatches: 2 },
    })
    expect(body[1]).toMatchObject({ accountManagerId: null, accountManagerName: null, counts: { dispatches: 1 } })
    const forSales = (await call('GET', '', sales)).json<Company[]>()
    expect(forSales[0]).toEqual({ id: 'co-alpha', name: 'Alpha Learning', counts: body[0]!.counts })
  })
})

describe('GET /api/admin/companies/:id', () => {
  it('gives users, course requests and present dispatches from the mirror', async () => {
    const body = (await call('GET', '/co-alpha')).json<CompanyDetail>()
    expect(body).toMatchObject({ id: 'co-alpha', name: 'Alpha Learning', scormError: null })
    expect(body.users.map((u) => [u.name, u.email, u.role])).toEqual([
      ['carl', 'carl@alpha.test', 'client'],
      ['Cleo Client', 'cleo@alpha.test', 'client'],
    ])
    expect(body.courseRequests).toEqual([
      {
        id: expect.any(String),
        courseTitle: 'Ethics',
        requestedBy: 'Cleo Client',
        licenses: 5,
        status: 'PENDING',
        createdAt: '2026-03-04T05:06:07.000Z',
      },
    ])
    expect(body.dispatches).toEqual([
      {
        id: 'disp-2',
        courseId: 'c-2',
        courseTitle: 'Ethics',
        created: '2026-01-02T03:04:05.000Z',
        expirationDate: null,
        licensesUsed: 3,
        licensesTotal: 0,
      },
      {
        id: 'disp-1',
        courseId: 'c-1',
        courseTitle: 'Safety',
        created: '2026-01-02T03:04:05.000Z',
        expirationDate: '2027-01-31T00:00:00.000Z',
        licensesUsed: 7,
        licensesTotal: 10,
      },
    ])
    expect((await call('GET', '/co-alpha', sales)).json()).not.toHaveProperty('accountManagerEmail')
  })

  it('answers 404 Company not found for an unknown or removed company', async () => {
    for (const id of ['nope', 'co-gone']) {
      const res = await call('GET', `/${id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe('Company not found')
    }
  })

  it('sets scormError, and still answers, when the last dispatch sync failed', async () => {
    await t.database.db.insert(syncRun).values([
      {
        kind: 'dispatches',
        trigger: 'schedule',
        status: 'succeeded',
        startedAt: new Date('2026-01-01T00:00:00Z'),
        finishedAt: new Date('2026-01-01T00:01:00Z'),
      },
      {
        kind: 'dispatches',
        trigger: 'schedule',
        status: 'failed',
        startedAt: new Date('2026-01-01T00:10:00Z'),
        finishedAt: new Date('2026-01-01T00:10:05Z'),
      },
    ])
    const body = (await call('GET', '/co-alpha')).json<CompanyDetail>()
    expect(body.scormError).toMatch(/SCORM Cloud could not be reached.*2026-01-01T00:01:00.000Z/)
    expect(body.dispatches).toHaveLength(2)
    await t.database.db.delete(syncRun)
  })
})

describe('PUT /api/admin/companies/:id', () => {
  it('renames, logs COMPANY_UPDATED with before and after, and the rename survives a sync', async () => {
    const res = await call('PUT', '/co-bravo', admin, { name: '  Bravo Academy  ' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: 'co-bravo', name: 'Bravo Academy', counts: { dispatches: 1 } })
    expect(await latestLog()).toMatchObject({
      action: 'COMPANY_UPDATED',
      details: { companyId: 'co-bravo', before: { name: 'bravo Training' }, after: { name: 'Bravo Academy' } },
    })
    // The sync overwrites the provider's column only.
    await createSyncRepository(t.database.db).upsertCompanies([
      {
        id: 'co-bravo',
        name: 'Bravo Provider Name',
        providerCreated: null,
        providerUpdated: new Date(),
        ...launchAuthColumns({}),
      },
    ])
    expect(await stored('co-bravo')).toMatchObject({ name: 'Bravo Provider Name', displayName: 'Bravo Academy' })
    const list = (await call('GET', '')).json<Company[]>()
    expect(list.find((c) => c.id === 'co-bravo')!.name).toBe('Bravo Academy')
    expect((await call('GET', '/co-bravo')).json().name).toBe('Bravo Academy')
    // Renamed to the provider's name: the override goes, the provider's name is followed again.
    await call('PUT', '/co-bravo', admin, { name: 'Bravo Provider Name' })
    expect((await stored('co-bravo')).displayName).toBeNull()
  })

  it.each([
    [{ name: '' }, 'Company name cannot be empty'],
    [{ name: '   ' }, 'Company name cannot be empty'],
    [{ accountManagerName: 'Only a name' }, 'Nothing to update.'],
    [{}, 'Nothing to update.'],
  ])('refuses %j with 400 and changes nothing', async (body, message) => {
    const before = await stored('co-alpha')
    const lastId = (await latestLog()).id
    const res = await call('PUT', '/co-alpha', admin, body)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    expect(await stored('co-alpha')).toEqual(before)
    expect((await latestLog()).id).toBe(lastId)
  })

  it('accepts only an active sales user as account manager, by id or by email', async () => {
    const internal = await t.createUser('internal')
    const suspended = await t.createUser('sales')
    await t.database.db.update(appUser).set({ status: 'suspended' }).where(eq(appUser.id, suspended.id))
    const before = await stored('co-bravo')
    const lastId = (await latestLog()).id
    for (const body of [
      { accountManagerId: internal.id },
      { accountManagerId: suspended.id },
      { accountManagerId: '00000000-0000-4000-8000-000000000000' },
      { accountManagerName: 'Ines', accountManagerEmail: internal.email },
      { name: 'Renamed Too', accountManagerEmail: 'nobody@example.test' },
    ]) {
      const res = await call('PUT', '/co-bravo', admin, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().message).toBe('The account manager must be an active sales user.')
    }
    expect(await stored('co-bravo')).toEqual(before)
    expect((await latestLog()).id).toBe(lastId)
  })

  it('sets a sales manager by name and email, logs it, and clears it with null', async () => {
    const seller = await t.createUser('sales', { name: 'Sara Seller' })
    const res = await call('PUT', '/co-bravo', admin, {
      name: 'Bravo Provider Name',
      accountManagerName: 'Sara Seller',
      accountManagerEmail: seller.email.toUpperCase(),
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ accountManagerId: seller.id, accountManagerName: 'Sara Seller' })
    expect(await latestLog()).toMatchObject({
      action: 'COMPANY_UPDATED',
      details: {
        before: { accountManagerId: null, accountManagerEmail: null },
        after: { accountManagerId: seller.id, accountManagerEmail: seller.email },
      },
    })
    const cleared = await call('PUT', '/co-bravo', admin, { accountManagerId: null })
    expect(cleared.json()).toMatchObject({ accountManagerId: null, accountManagerEmail: null })
    expect((await stored('co-bravo')).accountManagerId).toBeNull()
  })

  it('answers 404 for an unknown company, and writes no log for a change to nothing', async () => {
    expect((await call('PUT', '/nope', admin, { name: 'X' })).statusCode).toBe(404)
    const lastId = (await latestLog()).id
    const same = await call('PUT', '/co-alpha', admin, { name: 'Alpha Learning', accountManagerId: salesUser.id })
    expect(same.statusCode).toBe(200)
    expect((await latestLog()).id).toBe(lastId)
  })
})
