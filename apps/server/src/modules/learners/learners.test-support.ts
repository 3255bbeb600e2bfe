import { expect } from 'vitest'
import type { LearnerListResponse } from '@portal/shared'
import type { TestContext } from '../../test/helpers'

/** A registration's learner fields (issue #16's tests). */
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
