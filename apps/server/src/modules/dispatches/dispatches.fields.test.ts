import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import {
  DispatchListResponseSchema,
  DispatchSchema,
  ReportResponseSchema,
  ROLES,
  type Dispatch,
  type DispatchListResponse,
  type ReportResponse,
  type Role,
} from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { course } from '../../db/schema'
import { dispatchFields } from './dispatches.fields'
import { toDispatch } from './dispatches.mapper'
import { createDispatchesRepository } from './dispatches.repository'
import { insertDispatches, insertRegistrations } from './dispatches.test-data'

/**
 * A dispatch's fields are declared once (dispatches.fields.ts), and both the list's JSON rows
 * (written by PostgreSQL) and toDispatch() (single reads, the report's dispatch) are built from
 * that declaration. For every role, each row the SQL writes must pass the route's schema with no
 * key the schema does not name, and be what toDispatch() gives for the same row, keys in the same
 * order; and the declaration must say what DispatchSchema says.
 */
let t: TestContext
const headers = new Map<Role, { 'x-auth-token': string }>()
const COMPANY_OF_CLIENT = 'company-f'

/** DispatchSchema with no key beyond the ones it names (TypeBox objects allow others by default). */
const ExactDispatch = Type.Object(DispatchSchema.properties, { additionalProperties: false })

/** docs/product-rules.md §6: what each role reads of a dispatch. */
const EXPECTED_KEYS: Record<Role, string[]> = (() => {
  const common = ['id', 'courseId', 'courseTitle', 'destinationId', 'destinationName', 'enabled']
  const counts = ['registrationCount', 'registrationCap', 'created', 'updated', 'expirationDate']
  return {
    admin: [...common, ...counts, 'appSource', 'tags', 'notes', 'registrationResetDate'],
    internal: [...common, ...counts, 'tags', 'notes', 'registrationResetDate'],
    sales: [...common, ...counts, 'registrationResetDate'],
    client: [...common, ...counts, 'registrationResetDate'],
  }
})()

beforeAll(async () => {
  t = await buildTestApp()
  await t.database.db.insert(course).values({ id: 'c-fields-null', title: 'No app', appSource: null })
  await insertDispatches(t.database.db, [
    {
      id: 'fields-1',
      destinationId: COMPANY_OF_CLIENT,
      destinationName: 'Quote " and \\ Zoë 😀',
      courseTitle: 'Line\nbreak',
      registrationCount: 7,
      registrationCap: 10,
      tags: ['a"b', ''],
      notes: 'tab\there',
      expirationDate: new Date('2027-05-06T07:08:09.010Z'),
      registrationResetDate: new Date('2025-12-31T23:59:59.999Z'),
    },
    {
      id: 'fields-2',
      destinationId: COMPANY_OF_CLIENT,
      courseId: 'c-fields-null',
      courseTitle: 'No app',
      enabled: false,
      tags: [],
      notes: '',
      providerCreated: null,
      providerUpdated: null,
    },
    { id: 'fields-3', destinationId: 'company-g', tags: ['other'], notes: 'elsewhere' },
    // Enough rows for a second page of 10, for every role.
    ...Array.from({ length: 11 }, (_, i) => ({
      id: `fields-${i + 10}`,
      destinationId: COMPANY_OF_CLIENT,
      registrationCount: i,
      tags: i % 2 ? [`t${i}`] : [],
      notes: `note ${i}`,
    })),
  ])
  await insertRegistrations(t.database.db, [{ id: 'fields-reg', dispatchId: 'fields-1' }])
  for (const role of ROLES)
    headers.set(role, (await t.loginAs(role, role === 'client' ? { companyId: COMPANY_OF_CLIENT } : {})).headers)
})
afterAll(async () => t.close())

async function get<T>(role: Role, url: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url, headers: headers.get(role)! })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<T>()
}

/** Each row of the answer against toDispatch() of the row the details read, as JSON text. */
async function expectRowsAsMapped(role: Role, rows: Dispatch[]) {
  const repository = createDispatchesRepository(t.database.db)
  const companyId = role === 'client' ? COMPANY_OF_CLIENT : undefined
  for (const row of rows) {
    expect(Value.Check(ExactDispatch, row), JSON.stringify(row)).toBe(true)
    expect(Object.keys(row)).toEqual(EXPECTED_KEYS[role])
    const mapped = toDispatch((await repository.findVisible(row.id, companyId))!, role)
    // As text: the same keys, in the same order, with the same values.
    expect(JSON.stringify(row)).toBe(JSON.stringify(mapped))
  }
}

describe('the dispatch declared once (dispatches.fields.ts)', () => {
  it('declares DispatchSchema: every key, in its order, null where it allows null', () => {
    const admin = dispatchFields.view('admin').fields
    expect(admin.map((field) => field.name)).toEqual(Object.keys(DispatchSchema.properties))
    for (const field of admin) {
      const schema = DispatchSchema.properties[field.name as keyof Dispatch]
      expect(Value.Check(schema, null), field.name).toBe(field.nullable === true)
    }
  })

  it.each(ROLES)('declares for %s the keys docs/product-rules.md §6 gives it', (role) => {
    expect(dispatchFields.view(role).fields.map((field) => field.name)).toEqual(EXPECTED_KEYS[role])
  })

  it.each(ROLES)(
    'writes for %s, on every list path, the rows toDispatch() gives, valid against the schema',
    async (role) => {
      // The first pages (staff: with the summary in one statement; a client: a statement of its
      // own), a search matching most rows (walked), and one matching a company (collected).
      const queries = ['pageSize=50', 'pageSize=10&page=2&sort=course&order=asc', 'search=fields', 'search=Quote']
      for (const query of queries) {
        const body = await get<DispatchListResponse>(role, `/api/dispatches?${query}`)
        expect(Value.Check(DispatchListResponseSchema, body)).toBe(true)
        expect(body.dispatches.length).toBeGreaterThan(0)
        await expectRowsAsMapped(role, body.dispatches)
      }
      const all = await get<DispatchListResponse>(role, '/api/dispatches?pageSize=50')
      expect(all.dispatches.some((d) => d.id === 'fields-3')).toBe(role !== 'client')
      expect(all.dispatches).toHaveLength(role === 'client' ? 13 : 14)
    },
  )

  it.each(ROLES)("writes the report's dispatch for %s as the details write it, byte for byte", async (role) => {
    const report = await t.app.inject({
      method: 'GET',
      url: '/api/reports/dispatch/fields-1',
      headers: headers.get(role)!,
    })
    expect(report.statusCode, report.body).toBe(200)
    expect(Value.Check(ReportResponseSchema, report.json<ReportResponse>())).toBe(true)
    const details = await t.app.inject({ method: 'GET', url: '/api/dispatches/fields-1', headers: headers.get(role)! })
    expect(report.body).toContain(`{"dispatch":${details.body},`)
  })
})
