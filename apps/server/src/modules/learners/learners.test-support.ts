import { afterAll, beforeAll, expect } from 'vitest'
import type { LearnerListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'

/** A registration's learner fields (the tests). */
export const person = (first: string, last: string, email: string) => ({
  learnerFirstName: first,
  learnerLastName: last,
  learnerEmail: email,
})

/** GET /api/learners?query as `headers`, which must answer 200. */
export async function listLearners(t: TestContext, query: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: `/api/learners?${query}`, headers })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<LearnerListResponse>()
}

/** A page's learners as lowercased e-mails, in order. */
export const emails = (body: LearnerListResponse) => body.learners.map((l) => l.email.toLowerCase())

/**
 * A test app for the enclosing file (its beforeAll and afterAll) with an admin signed in:
 * `app.t` inside the tests, and `list(query)` as that admin.
 */
export function useLearnersApp() {
  const app = {} as { t: TestContext; admin: Record<string, string> }
  beforeAll(async () => {
    app.t = await buildTestApp()
    app.admin = (await app.t.loginAs('admin')).headers
  }, 120_000)
  afterAll(async () => app.t?.close())
  const list = async (query: string) => listLearners(app.t, query, app.admin)
  return { app, list }
}
