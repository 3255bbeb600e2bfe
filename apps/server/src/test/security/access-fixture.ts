import type { Role } from '@portal/shared'
import { inArray } from 'drizzle-orm'
import { alert, apiKey, company, courseRequest, webhookSubscription } from '../../db/schema'
import { insertCourses } from '../../modules/courses/courses.test-data'
import { insertDispatches, insertRegistrations } from '../../modules/dispatches/dispatches.test-data'
import type { TestContext, TestUser } from '../helpers'

/**
 * Two client companies with the same kinds of rows, so every route can be called with an id of
 * the caller's own company, of another company, and of nothing. Distinctive strings mark what a
 * role must never receive: the access matrix scans every 2xx body for them.
 */
export const OWN_COMPANY = 'sec-company-a'
export const FOREIGN_COMPANY = 'sec-company-b'
export const MISSING_ID = 'sec-does-not-exist'
export const MISSING_UUID = '00000000-0000-4000-8000-00000000dead'

export const MARK = {
  foreignCompanyName: 'Foreign Company Beta',
  foreignDispatch: 'sec-dispatch-b',
  foreignLearner: 'foreign.learner@beta.test',
  foreignRequestNote: 'FOREIGN-REQUEST-NOTE-7731',
  foreignClientEmail: 'client.beta@beta.test',
  hiddenCourse: 'sec-course-hidden',
  hiddenTitle: 'Hidden Course Omega',
  dispatchTag: 'SECRET-TAG-4471',
  dispatchNote: 'SECRET-DISPATCH-NOTE-9912',
  lockedDemo: 'https://demo.example/locked-demo-5521',
  openDemo: 'https://demo.example/open-demo-6632',
  /** docs/product-rules.md §6: the hosting app is the admin's (course, dispatch list and details, report). */
  appSource: 'APP-SOURCE-MARK-3317',
} as const

export interface Ids {
  own: string
  foreign: string
  missing: string
  hidden?: string
}

export interface AccessFixture {
  headers: Record<Role, { 'x-auth-token': string }>
  users: Record<Role, TestUser>
  dispatch: Ids
  company: Ids
  course: Ids
  request: Ids & { ownStatus: string; foreignStatus: string }
  /** An alert of each company (the foreign one names the foreign company). */
  alert: Ids
  /** Job ids: none exists, so a route's answer is its permission's (403) or not found (404). */
  job: Ids
  /** An API key of each company (both companies allow keys). */
  apiKey: Ids
  /** A webhook subscription of each company (both companies allow integrations). */
  webhook: Ids
  /** Fresh subscriptions on each call, for the deletes. */
  freshWebhooks(): Promise<Ids>
  /** Fresh users on each call, so destructive admin calls never break later checks. */
  freshUsers(): Promise<Ids>
}

export async function seedAccessFixture(t: TestContext): Promise<AccessFixture> {
  const db = t.database.db
  await t.createCompany(OWN_COMPANY, 'Own Company Alpha')
  await t.createCompany(FOREIGN_COMPANY, MARK.foreignCompanyName)
  await insertCourses(db, [
    { id: 'sec-course-own', title: 'Own Course', isVisible: true, appSource: MARK.appSource },
    { id: 'sec-course-foreign', title: 'Foreign Course', isVisible: true },
    { id: MARK.hiddenCourse, title: MARK.hiddenTitle, isVisible: false, demoUrl: 'https://demo.example/h' },
    { id: 'sec-course-locked', title: 'Locked Demo', isVisible: true, demoUrl: MARK.lockedDemo },
    { id: 'sec-course-open', title: 'Open Demo', isVisible: true, demoUrl: MARK.openDemo },
  ])
  const secret = { tags: [MARK.dispatchTag], notes: MARK.dispatchNote }
  await insertDispatches(db, [
    { id: 'sec-dispatch-a', destinationId: OWN_COMPANY, courseId: 'sec-course-own', ...secret },
    {
      id: MARK.foreignDispatch,
      destinationId: FOREIGN_COMPANY,
      destinationName: MARK.foreignCompanyName,
      courseId: 'sec-course-foreign',
      courseTitle: 'Foreign Course',
      ...secret,
    },
  ])
  await insertRegistrations(db, [
    { id: 'sec-reg-a', dispatchId: 'sec-dispatch-a', learnerEmail: 'own.learner@alpha.test' },
    { id: 'sec-reg-b', dispatchId: MARK.foreignDispatch, learnerEmail: MARK.foreignLearner },
  ])

  const users = {} as Record<Role, TestUser>
  const headers = {} as Record<Role, { 'x-auth-token': string }>
  for (const role of ['admin', 'internal', 'sales', 'client'] as const) {
    const signed = await t.loginAs(role, role === 'client' ? { companyId: OWN_COMPANY } : {})
    users[role] = signed.user
    headers[role] = signed.headers
  }
  const foreignClient = await t.createUser('client', { companyId: FOREIGN_COMPANY, email: MARK.foreignClientEmail })

  const request = async (userId: string, email: string, companyId: string, courseId: string, status: string) => {
    const notes = companyId === FOREIGN_COMPANY ? MARK.foreignRequestNote : 'own note'
    const [row] = await db
      .insert(courseRequest)
      .values({
        courseId,
        courseTitle: courseId,
        userId,
        companyId,
        requestorName: email,
        requestorEmail: email,
        notes,
        status,
      })
      .returning({ id: courseRequest.id })
    return row!.id
  }
  const client = users.client
  await request(client.id, client.email, OWN_COMPANY, 'sec-course-locked', 'PENDING')
  const ownRequest = await request(client.id, client.email, OWN_COMPANY, 'sec-course-open', 'PROCESSED')
  const foreignRequest = await request(
    foreignClient.id,
    foreignClient.email,
    FOREIGN_COMPANY,
    'sec-course-locked',
    'COMPLETED',
  )

  const alerts = await db
    .insert(alert)
    .values(
      [
        { dispatchId: 'sec-dispatch-a', companyId: OWN_COMPANY, companyName: 'Own Company Alpha' },
        { dispatchId: MARK.foreignDispatch, companyId: FOREIGN_COMPANY, companyName: MARK.foreignCompanyName },
      ].map((a) => ({
        ...a,
        kind: 'usage',
        level: 80,
        courseTitle: 'Course',
        registrationCount: 8,
        registrationCap: 10,
      })),
    )
    .returning({ id: alert.id })

  await db
    .update(company)
    .set({ apiKeysAllowed: true })
    .where(inArray(company.id, [OWN_COMPANY, FOREIGN_COMPANY]))
  const keys = await db
    .insert(apiKey)
    .values(
      [
        { companyId: OWN_COMPANY, createdBy: client.id, prefix: 'dp_live_0000000000a1' },
        { companyId: FOREIGN_COMPANY, createdBy: foreignClient.id, prefix: 'dp_live_0000000000b2' },
      ].map((k) => ({ ...k, name: `key ${k.prefix}`, secretHash: '00'.repeat(32), scopes: ['dispatch:read'] })),
    )
    .returning({ id: apiKey.id })

  // The sealed secret is not one the server's key opens: revealing it is a 409, never a leak.
  const webhooks = async () => {
    const rows = await db
      .insert(webhookSubscription)
      .values(
        [
          { companyId: OWN_COMPANY, createdBy: client.id },
          { companyId: FOREIGN_COMPANY, createdBy: foreignClient.id },
        ].map((w) => ({ ...w, url: 'https://1.1.1.1/hook', events: ['dispatch.created'], secretSealed: 'v1.x.y.z' })),
      )
      .returning({ id: webhookSubscription.id })
    return { own: rows[0]!.id, foreign: rows[1]!.id, missing: MISSING_UUID }
  }

  return {
    headers,
    users,
    webhook: await webhooks(),
    freshWebhooks: webhooks,
    apiKey: { own: keys[0]!.id, foreign: keys[1]!.id, missing: MISSING_UUID },
    alert: { own: String(alerts[0]!.id), foreign: String(alerts[1]!.id), missing: '999999999' },
    // Jobs belong to no company: an admin reaches any id (an unknown one is 404), the others none.
    job: { own: MISSING_UUID, foreign: MISSING_UUID, missing: MISSING_UUID },
    dispatch: { own: 'sec-dispatch-a', foreign: MARK.foreignDispatch, missing: MISSING_ID },
    company: { own: OWN_COMPANY, foreign: FOREIGN_COMPANY, missing: MISSING_ID },
    course: { own: 'sec-course-own', foreign: 'sec-course-foreign', missing: MISSING_ID, hidden: MARK.hiddenCourse },
    request: {
      own: ownRequest,
      foreign: foreignRequest,
      missing: MISSING_UUID,
      ownStatus: 'PROCESSED',
      foreignStatus: 'COMPLETED',
    },
    async freshUsers() {
      const own = await t.createUser('client', { companyId: OWN_COMPANY })
      const foreign = await t.createUser('client', { companyId: FOREIGN_COMPANY })
      return { own: own.id, foreign: foreign.id, missing: MISSING_UUID }
    },
  }
}

/** Strings a caller of this role must never receive in any successful answer. */
export function forbiddenMarks(role: Role | 'none'): string[] {
  const marks: string[] = []
  if (role !== 'admin') marks.push(MARK.hiddenCourse, MARK.hiddenTitle, MARK.appSource)
  if (role === 'sales' || role === 'client') marks.push(MARK.dispatchTag, MARK.dispatchNote)
  if (role === 'client') {
    marks.push(
      FOREIGN_COMPANY,
      MARK.foreignCompanyName,
      MARK.foreignDispatch,
      MARK.foreignLearner,
      MARK.foreignRequestNote,
      MARK.foreignClientEmail,
      MARK.lockedDemo,
    )
  }
  return marks
}
