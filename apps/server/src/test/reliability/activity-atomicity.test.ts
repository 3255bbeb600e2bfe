import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import type { Simulator } from '@portal/scorm-cloud-sim'
import { activityLog, appUser, company, course, courseRequest, dispatch } from '../../db/schema'
import { insertCourses } from '../../modules/courses/courses.test-data'
import { startTestSimulator } from '../../modules/sync/sync.test-support'
import { buildTestApp, testConfig, type TestContext } from '../helpers'
import { appParts } from '../../app'

/**
 * Reliability suite, part 5: every audited change and its activity row commit in one
 * transaction. Database triggers force a failure at two points: at COMMIT, after both the change
 * and its row were written (a deferred constraint trigger on the changed table), and on the
 * activity insert itself. Either way the change must be gone and no row left behind; without
 * the triggers the change commits with exactly one row.
 */
type Headers = Record<string, string>
type Event = 'INSERT' | 'UPDATE' | 'DELETE'

let sim: Simulator
let t: TestContext
let admin: Headers
let client: Headers
let dispatchId: string

beforeAll(async () => {
  sim = await startTestSimulator()
  t = await buildTestApp({
    config: testConfig({ scormCloud: { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey } }),
  })
  expect((await appParts(t.app).sync!.run({ trigger: 'startup' })).ok).toBe(true)
  admin = (await t.loginAs('admin')).headers
  await t.createCompany('rel-co', 'Reliability Co')
  client = (await t.loginAs('client', { companyId: 'rel-co' })).headers
  await insertCourses(t.database.db, [{ id: 'rel-course', title: 'Reliability Course', isVisible: true }])
  dispatchId = sim.data.listDispatchIds()[0]!
  await t.database.db.execute(
    sql.raw(`create or replace function reliability_fail() returns trigger language plpgsql as $$
      begin raise exception 'reliability test: forced failure'; end $$`),
  )
})
afterEach(async () => {
  for (const table of ['app_user', 'company', 'course', 'course_request', 'dispatch', 'activity_log']) {
    await t.database.db.execute(sql.raw(`drop trigger if exists reliability_fail_commit on ${table}`))
  }
  await t.database.db.execute(sql.raw('drop trigger if exists reliability_fail_activity on activity_log'))
})
afterAll(async () => {
  await t.close()
  await sim.close()
})

/** Fails the change's transaction at COMMIT, after the change and its activity row were written. */
const failAtCommit = (table: string, event: Event) =>
  t.database.db.execute(
    sql.raw(`create constraint trigger reliability_fail_commit after ${event} on ${table}
      deferrable initially deferred for each row execute function reliability_fail()`),
  )
/** Fails the activity row's insert, inside the change's transaction. */
const failActivityInsert = (action: string) =>
  t.database.db.execute(
    sql.raw(`create trigger reliability_fail_activity before insert on activity_log for each row
      when (new.action = '${action}') execute function reliability_fail()`),
  )
const dropTriggers = async (table: string) => {
  await t.database.db.execute(sql.raw(`drop trigger if exists reliability_fail_commit on ${table}`))
  await t.database.db.execute(sql.raw('drop trigger if exists reliability_fail_activity on activity_log'))
}

const rowsOf = (action: string) => t.database.db.select().from(activityLog).where(eq(activityLog.action, action))
const inject = (method: 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })

async function createUser(): Promise<string> {
  return (await t.createUser('internal', { name: 'Before' })).id
}
const userRow = async (id: string) => (await t.database.db.select().from(appUser).where(eq(appUser.id, id)))[0] ?? null

interface Case {
  name: string
  table: string
  event: Event
  action: string
  /** Sets up a fresh target; returns what call and state need. */
  prepare(): Promise<string>
  call(target: string): Promise<LightMyRequestResponse>
  /** The target's state as the user would see it change. */
  state(target: string): Promise<unknown>
  status: number
  /**
   * The answer when the change's transaction fails (default 500). A dispatch edit has already
   * reached SCORM Cloud by then: 202, and the upstream change is still audited, in
   * a row of its own that says the mirror was not updated.
   */
  failedStatus?: number
  auditsUpstream?: boolean
}

const newEmail = `created-${randomUUID()}@example.test`
const CASES: Case[] = [
  {
    name: 'user create',
    table: 'app_user',
    event: 'INSERT',
    action: 'ADMIN_USER_CREATED',
    prepare: async () => newEmail,
    call: (email) =>
      inject('POST', '/api/users', admin, { email, password: 'a-long-unusual-passphrase-42', role: 'internal' }),
    state: async (email) => (await t.database.db.select().from(appUser).where(eq(appUser.email, email))).length,
    status: 201,
  },
  {
    name: 'user update',
    table: 'app_user',
    event: 'UPDATE',
    action: 'ADMIN_USER_UPDATED',
    prepare: createUser,
    call: (id) => inject('PUT', `/api/users/${id}`, admin, { name: 'After' }),
    state: async (id) => (await userRow(id))?.name,
    status: 200,
  },
  {
    name: 'user status',
    table: 'app_user',
    event: 'UPDATE',
    action: 'ADMIN_USER_SUSPENDED',
    prepare: createUser,
    call: (id) => inject('PUT', `/api/users/${id}/status`, admin, { status: 'suspended' }),
    state: async (id) => (await userRow(id))?.status,
    status: 200,
  },
  {
    name: 'user delete',
    table: 'app_user',
    event: 'DELETE',
    action: 'ADMIN_USER_DELETED',
    prepare: createUser,
    call: (id) => inject('DELETE', `/api/users/${id}`, admin),
    state: async (id) => (await userRow(id)) !== null,
    status: 200,
  },
  {
    name: 'company update',
    table: 'company',
    event: 'UPDATE',
    action: 'COMPANY_UPDATED',
    prepare: async () => 'rel-co',
    call: (id) => inject('PUT', `/api/admin/companies/${id}`, admin, { name: 'Renamed Co' }),
    state: async (id) => (await t.database.db.select().from(company).where(eq(company.id, id)))[0]?.displayName,
    status: 200,
  },
  {
    name: 'course edit',
    table: 'course',
    event: 'UPDATE',
    action: 'COURSE_DETAIL_EDIT_SAVED',
    prepare: async () => 'rel-course',
    call: (id) => inject('PUT', `/api/courses/${id}/details`, admin, { summary: 'Edited summary' }),
    state: async (id) => (await t.database.db.select().from(course).where(eq(course.id, id)))[0]?.summary,
    status: 200,
  },
  {
    name: 'course request create',
    table: 'course_request',
    event: 'INSERT',
    action: 'COURSE_REQUEST_SUBMITTED',
    prepare: async () => 'rel-course',
    call: () => inject('POST', '/api/course-requests', client, { courseId: 'rel-course', licenses: 2 }),
    state: async () => (await t.database.db.select().from(courseRequest)).length,
    status: 201,
  },
  {
    name: 'course request status',
    table: 'course_request',
    event: 'UPDATE',
    action: 'COURSE_REQUEST_STATUS_UPDATED',
    async prepare() {
      const [row] = await t.database.db
        .select({ id: courseRequest.id })
        .from(courseRequest)
        .where(eq(courseRequest.courseId, 'rel-course'))
      return row!.id
    },
    call: (id) => inject('PUT', `/api/course-requests/${id}/status`, admin, { status: 'PROCESSED' }),
    state: async (id) => (await t.database.db.select().from(courseRequest).where(eq(courseRequest.id, id)))[0]?.status,
    status: 200,
  },
  {
    name: 'dispatch update',
    table: 'dispatch',
    event: 'UPDATE',
    action: 'DISPATCH_UPDATED',
    prepare: async () => dispatchId,
    call: (id) => inject('PUT', `/api/dispatches/${id}`, admin, { notes: 'Edited by the reliability suite' }),
    state: async (id) => (await t.database.db.select().from(dispatch).where(eq(dispatch.id, id)))[0]?.notes,
    status: 200,
    failedStatus: 202,
    auditsUpstream: true,
  },
  {
    name: 'course visibility',
    table: 'course',
    event: 'UPDATE',
    action: 'COURSE_VISIBILITY_CHANGED',
    prepare: async () => 'rel-course',
    call: (id) => inject('PUT', `/api/courses/${id}/visibility`, admin, { isVisible: false }),
    state: async (id) => (await t.database.db.select().from(course).where(eq(course.id, id)))[0]?.isVisible,
    status: 200,
  },
]

describe('activity rows share the transaction of the change they record', () => {
  // Sequential on purpose: the course request cases build on each other, and hiding the course comes last.
  for (const c of CASES) {
    it(`${c.name}: a failed transaction leaves neither the change nor its ${c.action} row`, async () => {
      const target = await c.prepare()
      const before = await c.state(target)
      let rowsBefore = (await rowsOf(c.action)).length

      await failAtCommit(c.table, c.event)
      const atCommit = await c.call(target)
      expect(atCommit.statusCode, atCommit.body).toBe(c.failedStatus ?? 500)
      expect(await c.state(target)).toEqual(before)
      if (c.auditsUpstream) {
        // No row claims the mirror change that was rolled back; one records the upstream change.
        const added = (await rowsOf(c.action)).slice(rowsBefore)
        expect(added.map((r) => (r.details as { mirrorUpdated?: boolean }).mirrorUpdated)).toEqual([false])
        rowsBefore += 1
      }
      expect(await rowsOf(c.action)).toHaveLength(rowsBefore)
      await dropTriggers(c.table)

      await failActivityInsert(c.action)
      const atInsert = await c.call(target)
      expect(atInsert.statusCode, atInsert.body).toBe(c.failedStatus ?? 500)
      expect(await c.state(target)).toEqual(before)
      expect(await rowsOf(c.action)).toHaveLength(rowsBefore)
      await dropTriggers(c.table)

      const ok = await c.call(target)
      expect(ok.statusCode, ok.body).toBe(c.status)
      expect(await c.state(target)).not.toEqual(before)
      expect(await rowsOf(c.action)).toHaveLength(rowsBefore + 1)
    })
  }
})
